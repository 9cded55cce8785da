import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header that carries the correlation id over HTTP and NATS. */
export const CORRELATION_HEADER = 'x-correlation-id';

interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithCorrelation<T>(correlationId: string | undefined, fn: () => T): T {
  return storage.run({ correlationId: sanitizeCorrelationId(correlationId) ?? randomUUID() }, fn);
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/** Accepts a caller's id only when it is short and plain, so logs cannot be forged through it. */
export function sanitizeCorrelationId(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9._:-]{1,100}$/.test(value) ? value : undefined;
}
