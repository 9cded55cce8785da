import { AuthorizationError, connect, type NatsConnection } from '@nats-io/transport-node';
import type { BaseConfig } from '../config/config.js';

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

export interface NatsSettings {
  url: string;
  /** Prefix for every subject and stream name ('' in production). */
  namespace: string;
  /** The connection's name, shown by the server's monitoring. */
  name: string;
  /** Copies of each stream and KV bucket created (JETSTREAM_REPLICAS); unset: 1. */
  replicas?: number;
  /** The EVENTS stream's size cap in bytes (EVENTS_MAX_BYTES); unset: none. */
  eventsMaxBytes?: number | undefined;
  /** The app's NATS user and password (NATS_USER, NATS_PASSWORD); unset: none sent. */
  user?: string | undefined;
  password?: string | undefined;
}

/** An app's NATS settings from its configuration; `name` is the connection's. */
export function natsSettingsOf(
  config: Pick<
    BaseConfig,
    'NATS_URL' | 'NATS_NAMESPACE' | 'JETSTREAM_REPLICAS' | 'EVENTS_MAX_BYTES' | 'NATS_USER' | 'NATS_PASSWORD'
  >,
  name: string,
): NatsSettings {
  return {
    url: config.NATS_URL,
    namespace: config.NATS_NAMESPACE,
    name,
    replicas: config.JETSTREAM_REPLICAS,
    eventsMaxBytes: config.EVENTS_MAX_BYTES,
    user: config.NATS_USER,
    password: config.NATS_PASSWORD,
  };
}

/**
 * Where a user's request replies arrive: `_INBOX.<user>.`, so the server can let each user
 * read its own replies only (nats-permissions.ts); without a user, the client's default.
 */
export function inboxPrefixOf(user: string | undefined): string | undefined {
  return user ? `_INBOX.${user}` : undefined;
}

/** The connection options that name the app's user, if it has one. */
export function credentialsOf(settings: Pick<NatsSettings, 'user' | 'password'>) {
  const inboxPrefix = inboxPrefixOf(settings.user);
  return settings.user && inboxPrefix ? { user: settings.user, pass: settings.password ?? '', inboxPrefix } : {};
}

/** Says whose credentials the server refused, instead of the bare "Authorization Violation". */
export function explainAuthError(settings: Pick<NatsSettings, 'user' | 'url'>, error: unknown): unknown {
  if (!(error instanceof AuthorizationError)) return error;
  const who = settings.user
    ? `the user "${settings.user}" (NATS_USER) with its NATS_PASSWORD`
    : 'a connection without credentials (set NATS_USER and NATS_PASSWORD)';
  return new Error(`NATS at ${settings.url} refused ${who}: ${error.message}`, { cause: error });
}

export const NATS_SETTINGS = Symbol('NATS_SETTINGS');

/** Applies the namespace to a subject or stream name. */
export function namespaced(settings: Pick<NatsSettings, 'namespace'>, name: string): string {
  return settings.namespace ? `${settings.namespace}.${name}` : name;
}

/** Stream names may not hold dots: the namespace is joined with an underscore there. */
export function namespacedStream(settings: Pick<NatsSettings, 'namespace'>, stream: string): string {
  return settings.namespace ? `${settings.namespace}_${stream}` : stream;
}

/**
 * A connection that rides out broker restarts: it waits for the first server and reconnects
 * forever; refused credentials end it at once (twice refused, the client stops) with an error
 * that names the user.
 * Without async traces: otherwise every request builds two errors up front (their stacks would
 * name the caller should it time out), a tenth of the gateway's time on an authenticated read.
 * Failures are the same errors (TimeoutError, RequestError with its cause), with their own stacks.
 */
export function connectNats(settings: NatsSettings): Promise<NatsConnection> {
  return connect({
    servers: settings.url.split(','),
    name: settings.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
    noAsyncTraces: true,
    ...credentialsOf(settings),
  }).catch((error: unknown) => {
    throw explainAuthError(settings, error);
  });
}
