import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header that carries the correlation id over HTTP and NATS. */
export const CORRELATION_HEADER = 'x-correlation-id';

/** Who an RPC is made for: the signed-in user the gateway verified, carried in the envelope. */
export interface RpcCaller {
  userId: number;
  role: 'user' | 'admin';
}

interface RequestContext {
  correlationId: string;
  caller?: RpcCaller;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithCorrelation<T>(correlationId: string | undefined, fn: () => T, caller?: RpcCaller): T {
  return storage.run({ correlationId: sanitizeCorrelationId(correlationId) ?? randomUUID(), caller }, fn);
}

/** The caller of the RPC being handled, as its envelope named it (undefined outside a handler or when unnamed). */
export function currentCaller(): RpcCaller | undefined {
  return storage.getStore()?.caller;
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/** Accepts a caller's id only when it is short and plain, so logs cannot be forged through it. */
export function sanitizeCorrelationId(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9._:-]{1,100}$/.test(value) ? value : undefined;
}
