import Replicate from 'replicate';
import { ProviderRejectedError, ProviderUnavailableError } from './errors.js';

export const REPLICATE_API_URL = 'https://api.replicate.com/v1';

/** How every Replicate adapter reaches the API. */
export interface ReplicateClientOptions {
  /** REPLICATE_API_TOKEN. */
  apiToken: string;
  /** Defaults to Replicate's API (`https://api.replicate.com/v1`); tests point it at a stand-in. */
  baseUrl?: string;
  /** Each HTTP request gives up after this long (then ProviderUnavailableError). */
  requestTimeoutMs?: number;
  /** The fetch underneath (defaults to the global one). */
  fetch?: typeof globalThis.fetch;
}

export interface ApiErrorLike extends Error {
  response: Response;
}

export const isApiError = (error: unknown): error is ApiErrorLike =>
  error instanceof Error && error.name === 'ApiError' && 'response' in error;

export const isNotFound = (error: unknown) => isApiError(error) && error.response.status === 404;

/**
 * Replicate's prediction and training ids are short alphanumeric strings. The SDK puts an id
 * into the request path as it is, so anything else (a dot, a slash, a `?`) could name another
 * endpoint, called with our token: such an id names nothing there.
 */
const REPLICATE_ID = /^[A-Za-z0-9_-]{1,128}$/;
export const isReplicateId = (id: string) => REPLICATE_ID.test(id);

/** An owner or model name as Replicate allows them (letters, digits, `-`, `_`, `.`, not only dots). */
const MODEL_NAME_PART = /^(?!\.+$)[A-Za-z0-9_.-]{1,128}$/;

/** `owner/name` of a Replicate model, each part checked before the SDK puts it in a path. */
export function parseModelName(model: string): { owner: string; name: string } {
  const [owner = '', name = '', ...rest] = model.split('/');
  if (rest.length > 0 || !MODEL_NAME_PART.test(owner) || !MODEL_NAME_PART.test(name)) {
    throw new Error(`A Replicate model is owner/name, not ${JSON.stringify(model)}`);
  }
  return { owner, name };
}

/**
 * A Replicate client whose requests time out and whose creations are never repeated.
 *
 * The SDK retries a request whose fetch threw, whatever its method, which would repeat a
 * creation that timed out. A request (one `init` object across the SDK's attempts) gets one
 * transport attempt; the SDK's further attempts fail at once with the same error.
 */
export function createReplicateClient(options: ReplicateClientOptions): Replicate {
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const baseFetch = options.fetch ?? globalThis.fetch;
  const transportFailures = new WeakMap<object, ProviderUnavailableError>();
  const baseUrl = options.baseUrl ?? REPLICATE_API_URL;
  const apiRoot = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);

  async function fetchOnce(input: Request | URL | string, init?: RequestInit): Promise<Response> {
    const earlier = init && transportFailures.get(init);
    if (earlier) throw earlier;
    // The token goes to the API and nowhere else, whatever URL an answer (a page's `next`) names.
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (target.origin !== apiRoot.origin || !target.pathname.startsWith(apiRoot.pathname)) {
      throw new Error(`Refused to send the Replicate token to ${target.origin}${target.pathname}, outside ${apiRoot}`);
    }
    const timeout = AbortSignal.timeout(requestTimeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      return await baseFetch(input, { ...init, signal });
    } catch (error) {
      const target = input instanceof Request ? input.url : String(input);
      const reason = timeout.aborted ? `no answer within ${requestTimeoutMs} ms` : describe(error);
      const failure = new ProviderUnavailableError(
        `Replicate could not be reached (${init?.method ?? 'GET'} ${target}): ${reason}`,
        undefined,
        { cause: error },
      );
      if (init) transportFailures.set(init, failure);
      throw failure;
    }
  }

  return new Replicate({
    auth: options.apiToken,
    baseUrl,
    fetch: fetchOnce,
  });
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) {
    const cause = value.cause instanceof Error ? `: ${value.cause.message}` : '';
    return `${value.message}${cause}`;
  }
  return JSON.stringify(value);
}

/** Replicate's problem details (`{"detail": ...}`) when the SDK's message carries them. */
function detailOf(error: ApiErrorLike): string {
  const body = /failed with status \d+[^:]*: ([\s\S]*)\.$/.exec(error.message)?.[1];
  if (!body) return error.message;
  try {
    const parsed = JSON.parse(body) as { detail?: unknown; title?: unknown };
    return describe(parsed.detail ?? parsed.title ?? body);
  } catch {
    return body;
  }
}

/** 5xx/429 and transport failures → ProviderUnavailableError; other refusals → ProviderRejectedError. */
export function toProviderError(error: unknown, what: string): Error {
  if (error instanceof ProviderUnavailableError || error instanceof ProviderRejectedError) return error;
  if (!isApiError(error)) return error instanceof Error ? error : new Error(describe(error));
  const status = error.response.status;
  if (status >= 500 || status === 429) {
    return new ProviderUnavailableError(`Replicate answered ${status} to ${what}`, status, { cause: error });
  }
  if (status === 401 || status === 403) {
    return new ProviderRejectedError(
      `Replicate refused the API token (${status}) to ${what}: check REPLICATE_API_TOKEN and REPLICATE_OWNER`,
      status,
      { cause: error },
    );
  }
  return new ProviderRejectedError(`Replicate refused to ${what} (${status}): ${detailOf(error)}`, status, {
    cause: error,
  });
}

export const REPLICATE_STATUSES: Readonly<
  Record<string, 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled'>
> = {
  starting: 'starting',
  processing: 'processing',
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'canceled',
  aborted: 'canceled',
};
