import { type Context, type Span, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { MsgHdrs } from '@nats-io/transport-node';

/** The W3C trace context of a span, as it travels in a NATS header or an event's envelope. */
export type TraceCarrier = Record<string, string>;

const tracer = trace.getTracer('likeness');

const headerSetter = { set: (carrier: MsgHdrs, key: string, value: string) => carrier.set(key, value) };
const headerGetter = {
  get: (carrier: MsgHdrs, key: string) => carrier.get(key) || undefined,
  keys: (carrier: MsgHdrs) => carrier.keys(),
};

/** Adds the current trace context to a message's headers (nothing while tracing is off). */
export function injectTraceHeaders(headers: MsgHdrs): void {
  propagation.inject(context.active(), headers, headerSetter);
}

/** The current trace context to keep with an event or a job until it is handled; undefined while off. */
export function currentTraceCarrier(): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** Copies a kept trace context into a message's headers. */
export function setTraceHeaders(headers: MsgHdrs, carrier: TraceCarrier | undefined): void {
  for (const [key, value] of Object.entries(carrier ?? {})) headers.set(key, value);
}

export function contextFromHeaders(headers: MsgHdrs | undefined): Context {
  return headers ? propagation.extract(context.active(), headers, headerGetter) : context.active();
}

export function contextFromCarrier(carrier: TraceCarrier | undefined): Context {
  return carrier ? propagation.extract(context.active(), carrier) : context.active();
}

export type MessagingSpanKind = 'client' | 'server' | 'consumer';

const KINDS: Record<MessagingSpanKind, SpanKind> = {
  client: SpanKind.CLIENT,
  server: SpanKind.SERVER,
  consumer: SpanKind.CONSUMER,
};

/** A span the caller ends; `run` executes with it as the active span. */
export function startMessagingSpan(
  name: string,
  kind: MessagingSpanKind,
  parent: Context,
  subject: string,
): { span: Span; run: <T>(work: () => T) => T } {
  const span = tracer.startSpan(
    name,
    { kind: KINDS[kind], attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } },
    parent,
  );
  const active = trace.setSpan(parent, span);
  return { span, run: (work) => context.with(active, work) };
}

/** Runs `work` in a messaging span that records a failure and always ends. */
export async function inMessagingSpan<T>(
  name: string,
  kind: MessagingSpanKind,
  parent: Context,
  subject: string,
  work: () => Promise<T>,
): Promise<T> {
  const { span, run } = startMessagingSpan(name, kind, parent, subject);
  try {
    return await run(work);
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : new Error(String(error)));
  span.setStatus({ code: SpanStatusCode.ERROR });
}
