import {
  ADMIN_ONLY_MESSAGE,
  type ErrorBody,
  MAX_STORED_INTEGER,
  RPC_CALLER_ID_HEADER,
  RPC_CALLER_ROLE_HEADER,
  type RpcDefinition,
  safeParseRequest,
} from '@likeness/contracts';
import { Match, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { type INestApplicationContext, Logger } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { type CustomTransportStrategy, Server } from '@nestjs/microservices';
import { discoverMethods } from '../bootstrap/discover-methods.js';
import { DomainError, INTERNAL_ERROR_MESSAGE, isExpectedError, toErrorBody } from '../errors/domain-error.js';
import { rpcMetrics } from '../health/metrics.js';
import { CORRELATION_HEADER, type RpcCaller, runWithCorrelation } from '../logging/correlation.js';
import { contextFromHeaders, failSpan, startMessagingSpan } from '../tracing/trace-context.js';
import { connectNats, namespaced } from './nats.js';
import { RPC_HANDLER_METADATA, parseReply } from './rpc-handler.decorator.js';

export interface RpcServerOptions {
  url: string;
  /** Queue group: every replica of a service shares its requests. */
  queue: string;
  namespace: string;
  name: string;
  /** Milliseconds close() waits for handlers still running. */
  gracePeriodMs: number;
  /** The app's NATS user and password; unset: none sent. */
  user?: string | undefined;
  password?: string | undefined;
}

/** One `@RpcHandler` method of the app, bound to its instance. */
export interface RpcHandlerEntry {
  definition: RpcDefinition;
  /** `Class.method`, for errors. */
  name: string;
  call: (request: unknown) => unknown;
}

/** What a reply carries besides the request's id: the answer or the error's body. */
type Outcome = { response: unknown } | { err: ErrorBody };

const UNREADABLE_REQUEST = 'The request could not be read.';

/**
 * Every `@RpcHandler` method of an app (its controllers and providers), to give `RpcServer.serve`
 * once the app's modules are up. Two handlers of one subject are a mistake found here, not a
 * silent choice of one.
 */
export function discoverRpcHandlers(app: INestApplicationContext): RpcHandlerEntry[] {
  const found = discoverMethods<RpcDefinition>(
    new DiscoveryService(app.get(ModulesContainer)),
    new MetadataScanner(),
    new Reflector(),
    RPC_HANDLER_METADATA,
    { controllers: true },
  );
  const bySubject = new Map<string, string>();
  for (const { metadata, name } of found) {
    const other = bySubject.get(metadata.subject);
    if (other) throw new Error(`${name} and ${other} both answer ${metadata.subject}`);
    bySubject.set(metadata.subject, name);
  }
  return found.map(({ metadata, name, call }) => ({ definition: metadata, name, call }));
}

/**
 * Answers a service's RPCs over NATS request/reply, in the packet format of Nest's NATS
 * transport (`{pattern, data, id}` in, `{id, response | err, isDisposed}` out, which `RpcClient`
 * speaks), with the subject namespace applied, each subject in the service's queue group, and an
 * unlimited reconnect. A message goes straight to its handler: parsed against the contract, run
 * with the caller's correlation id, its span and its metric, its reply checked and sent, without
 * Nest's per-message pipeline (a context, interceptors and filters as rxjs streams) in between.
 * Shutdown stops taking requests, lets running handlers answer, then drains.
 *
 * A Nest transport strategy (`connectMicroservice`), so the app starts it after its modules and
 * stops it before its HTTP server and database; the handlers come from `serve()`, before it starts.
 */
export class RpcServer extends Server implements CustomTransportStrategy {
  private readonly rpcLogger = new Logger('Rpc');
  private handlers: readonly RpcHandlerEntry[] = [];
  private connection: NatsConnection | undefined;
  private subscriptions: Subscription[] = [];
  private inFlight = 0;
  private idle: (() => void) | undefined;

  constructor(private readonly settings: RpcServerOptions) {
    super();
  }

  /** The handlers to answer (`discoverRpcHandlers(app)`); called before the server starts. */
  serve(handlers: readonly RpcHandlerEntry[]): this {
    this.handlers = handlers;
    return this;
  }

  /**
   * Says it is listening only once the server has every subscription: a request sent the moment
   * an app (or a replica that just restarted) is up then finds a responder, not "no responders".
   */
  listen(callback: (error?: unknown) => void): void {
    this.start().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  private async start(): Promise<void> {
    const connection = await connectNats({ ...this.settings });
    this.connection = connection;
    // A status stream that fails has nothing left to report; the connection reconnects on its own.
    this.watch(connection).catch(() => undefined);
    for (const entry of this.handlers) {
      this.subscriptions.push(
        connection.subscribe(namespaced(this.settings, entry.definition.subject), {
          queue: this.settings.queue,
          callback: (error, message) => {
            if (error) {
              this.rpcLogger.error(`The subscription to ${entry.definition.subject} failed: ${error.message}`);
              return;
            }
            // Nobody waits for a message without a reply subject.
            if (!message.reply) return;
            this.inFlight += 1;
            this.answer(entry, message)
              .catch((failure: unknown) =>
                this.rpcLogger.error(`Answering ${entry.definition.subject} failed: ${(failure as Error).message}`),
              )
              .finally(() => {
                this.inFlight -= 1;
                if (this.inFlight === 0) this.idle?.();
              });
          },
        }),
      );
    }
    await connection.flush();
  }

  private async watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') this.rpcLogger.warn('Disconnected from NATS; reconnecting');
      else if (status.type === 'reconnect') this.rpcLogger.log('Reconnected to NATS');
    }
  }

  private async answer(entry: RpcHandlerEntry, message: Msg): Promise<void> {
    const packet = readPacket(message);
    const outcome = packet
      ? await this.handle(entry, packet.data, message.headers)
      : { err: new DomainError('COMMON.VALIDATION_FAILED', UNREADABLE_REQUEST).toBody() };
    this.reply(message, packet?.id, outcome);
  }

  private handle(
    { definition, call }: RpcHandlerEntry,
    data: unknown,
    envelope: MsgHdrs | undefined,
  ): Promise<Outcome> {
    const correlationId = envelope?.get(CORRELATION_HEADER) || undefined;
    const caller = callerOf(soleValue(envelope, RPC_CALLER_ID_HEADER), soleValue(envelope, RPC_CALLER_ROLE_HEADER));
    const subject = definition.subject;
    const timer = rpcMetrics.duration.startTimer({ subject });
    const started = performance.now();
    const { span, run } = startMessagingSpan(`rpc ${subject}`, 'server', contextFromHeaders(envelope), subject);
    const finish = (outcome: 'ok' | 'rejected' | 'failed', error?: unknown) => {
      timer({ outcome });
      if (outcome === 'failed') failSpan(span, error);
      span.end();
      this.rpcLogger.log(`${subject} ${outcome} in ${Math.round(performance.now() - started)} ms`);
    };
    const refuse = (error: DomainError): Outcome => {
      finish('rejected');
      return { err: toErrorBody(error) };
    };

    return run(() =>
      runWithCorrelation(
        correlationId,
        async (): Promise<Outcome> => {
          if (definition.requiredRole && caller?.role !== definition.requiredRole) {
            return refuse(new DomainError('AUTH.FORBIDDEN', ADMIN_ONLY_MESSAGE));
          }
          // The handler receives the parsed request (defaults applied, unknown keys dropped).
          const request = safeParseRequest(definition.request, data);
          if (!request.success) return refuse(DomainError.validation(request.error));
          try {
            const response = parseReply(definition, await call(request.data));
            finish('ok');
            return { response };
          } catch (error) {
            const expected = isExpectedError(error);
            finish(expected ? 'rejected' : 'failed', error);
            if (!expected) {
              const failure = error instanceof Error ? error : new Error(String(error));
              this.rpcLogger.error(`Handler for ${subject} failed: ${failure.message}`, failure.stack);
            }
            return { err: toErrorBody(error) };
          }
        },
        caller,
      ),
    );
  }

  /**
   * Sends a reply; one the bus cannot carry (past NATS's max_payload, so `respond` throws) is
   * answered with an internal error instead, so the caller is not left waiting for its timeout.
   */
  private reply(message: Msg, id: unknown, outcome: Outcome): void {
    try {
      message.respond(JSON.stringify({ id, ...outcome, isDisposed: true }));
    } catch (error) {
      this.rpcLogger.error(`A reply could not be sent: ${(error as Error).message}`);
      try {
        const err = new DomainError('COMMON.INTERNAL', INTERNAL_ERROR_MESSAGE).toBody();
        message.respond(JSON.stringify({ id, err, isDisposed: true }));
      } catch (again) {
        this.rpcLogger.error(`Not even an error could be sent: ${(again as Error).message}`);
      }
    }
  }

  async close(): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    this.connection = undefined;
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
    if (this.inFlight > 0) {
      await Promise.race([
        new Promise<void>((resolve) => (this.idle = resolve)),
        new Promise<void>((resolve) => setTimeout(resolve, this.settings.gracePeriodMs).unref()),
      ]);
    }
    await connection.drain().catch(() => connection.close());
  }

  on(): never {
    throw new Error('RpcServer has no events to listen to');
  }

  unwrap<T>(): T {
    return this.connection as T;
  }
}

/** The request packet `{id, data}`, or undefined when the message is not a JSON object. */
function readPacket(message: Msg): { id?: unknown; data?: unknown } | undefined {
  try {
    const packet: unknown = message.json();
    return packet && typeof packet === 'object' ? (packet as { id?: unknown; data?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A header's value when the envelope carries exactly one, under any spelling of its name: a
 * header sent twice (`user` then `admin`), or once more in other letters, is ambiguous and names
 * nothing, whichever of its values a reader would pick.
 */
function soleValue(envelope: MsgHdrs | undefined, name: string): string | undefined {
  const values = envelope?.values(name, Match.IgnoreCase) ?? [];
  return values.length === 1 ? values[0] : undefined;
}

/**
 * The caller the envelope names, when both its headers are well formed: an id that names a row
 * (a whole number from 1 to MAX_STORED_INTEGER, digits only) and a known role. Anything else
 * (a sign, a fraction, an id past the column's range, an unknown role) names nobody.
 */
function callerOf(id: string | undefined, role: string | undefined): RpcCaller | undefined {
  if (!id || !/^[1-9][0-9]{0,9}$/.test(id) || (role !== 'user' && role !== 'admin')) return undefined;
  const userId = Number(id);
  if (userId > MAX_STORED_INTEGER) return undefined;
  return { userId, role };
}
