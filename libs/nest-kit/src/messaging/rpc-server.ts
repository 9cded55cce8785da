import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { Logger } from '@nestjs/common';
import { ServerNats } from '@nestjs/microservices';
import { DomainError, INTERNAL_ERROR_MESSAGE } from '../errors/domain-error.js';
import { credentialsOf, namespaced } from './nats.js';

const replyLogger = new Logger('RpcServer');

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

/**
 * Nest's NATS transport, with the subject namespace applied, an unlimited reconnect, and a
 * shutdown that stops taking requests, lets running handlers answer, then drains.
 */
export class NamespacedNatsServer extends ServerNats {
  private readonly settings: RpcServerOptions;
  private readonly own: Subscription[] = [];
  private connection: NatsConnection | undefined;
  private inFlight = 0;
  private idle: (() => void) | undefined;
  /** Each handler's route, worked out once (see getRouteFromPattern). */
  private readonly routes = new Map<string, string>();

  constructor(settings: RpcServerOptions) {
    super({
      servers: settings.url.split(','),
      queue: settings.queue,
      name: settings.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      waitOnFirstConnect: true,
      ...credentialsOf(settings),
    });
    this.settings = settings;
  }

  /**
   * Says it is listening only once the server has every subscription: a request sent the moment
   * an app (or a replica that just restarted) is up then finds a responder, not "no responders".
   */
  override start(callback: (error?: unknown, ...optionalParams: unknown[]) => void): void {
    super.start((error?: unknown, ...rest: unknown[]) => {
      if (error || !this.connection) return callback(error, ...rest);
      this.connection.flush().then(
        () => callback(),
        (flushError: unknown) => callback(flushError),
      );
    });
  }

  override bindEvents(client: NatsConnection): void {
    this.connection = client;
    for (const [pattern, handler] of this.messageHandlers) {
      const queue = (handler.extras?.['queue'] as string | undefined) ?? this.settings.queue;
      const onMessage = this.getMessageHandler(pattern);
      this.own.push(
        client.subscribe(namespaced(this.settings, pattern), {
          queue,
          callback: (error, message) => {
            // A request stays in flight until its reply is sent (see getPublisher); an event
            // until its handler returns.
            if (message?.reply) this.inFlight += 1;
            void onMessage.call(this, error, message);
          },
        }),
      );
    }
  }

  /**
   * Nest works a pattern's route out on every message, first trying to read the pattern as JSON:
   * for our subjects (`auth.users.get`) that throws, and the error cost more than the rest of the
   * lookup. A registered handler's pattern always gives the same route, so it is kept.
   */
  protected override getRouteFromPattern(pattern: string): string {
    const known = this.routes.get(pattern);
    if (known !== undefined) return known;
    const route = super.getRouteFromPattern(pattern);
    if (this.messageHandlers.has(route)) this.routes.set(pattern, route);
    return route;
  }

  override getPublisher(...args: Parameters<ServerNats['getPublisher']>): ReturnType<ServerNats['getPublisher']> {
    const publish = super.getPublisher(...args);
    let done = false;
    return (response: { isDisposed?: boolean; err?: unknown }) => {
      const result = this.publishOrFail(publish, response);
      if (!done && (response.isDisposed || response.err !== undefined)) {
        done = true;
        this.inFlight -= 1;
        if (this.inFlight === 0) this.idle?.();
      }
      return result;
    };
  }

  /**
   * Sends a reply; one the bus cannot carry (past NATS's max_payload, so `respond` throws) is
   * answered with an internal error instead, so the caller is not left waiting for its timeout.
   */
  private publishOrFail(
    publish: ReturnType<ServerNats['getPublisher']>,
    response: { isDisposed?: boolean; err?: unknown },
  ): unknown {
    try {
      return publish(response);
    } catch (error) {
      replyLogger.error(`A reply could not be sent: ${(error as Error).message}`);
      return publish({ err: new DomainError('COMMON.INTERNAL', INTERNAL_ERROR_MESSAGE).toBody(), isDisposed: true });
    }
  }

  override async close(): Promise<void> {
    const client = (this as unknown as { natsClient: NatsConnection | null }).natsClient;
    if (!client) return;
    for (const subscription of this.own) subscription.unsubscribe();
    if (this.inFlight > 0) {
      await Promise.race([
        new Promise<void>((resolve) => (this.idle = resolve)),
        new Promise<void>((resolve) => setTimeout(resolve, this.settings.gracePeriodMs).unref()),
      ]);
    }
    await client.drain().catch(() => client.close());
    (this as unknown as { natsClient: NatsConnection | null }).natsClient = null;
  }
}
