import { ProviderRejectedError, ProviderUnavailableError } from '@likeness/inference';
import { DomainError } from '@likeness/nest-kit';
import type { ProviderErrorKind } from '../generation-metrics.js';
import { OutputRejectedError } from './download-output.js';

/** A fetch that gave up at its deadline rejects with a `TimeoutError` (a DOMException). */
const isTimeout = (error: unknown) => (error as { name?: unknown } | undefined)?.name === 'TimeoutError';

/**
 * The kind of a provider call's failure, for the metrics; undefined for an error that says nothing
 * about the provider (our database, a stand-by RPC, a prediction that is simply not there).
 */
export function providerErrorKind(error: unknown): ProviderErrorKind | undefined {
  if (error instanceof ProviderRejectedError) return 'rejected';
  if (error instanceof OutputRejectedError) return 'invalid_output';
  if (error instanceof DomainError && error.code === 'MEDIA.INVALID_IMAGE') return 'invalid_output';
  if (isTimeout(error)) return 'timeout';
  if (!(error instanceof ProviderUnavailableError)) return undefined;
  if (error.status === 429) return 'rate_limited';
  if (error.status !== undefined) return error.status >= 500 ? 'server_error' : 'rejected';
  return isTimeout(error.cause) ? 'timeout' : 'unreachable';
}
