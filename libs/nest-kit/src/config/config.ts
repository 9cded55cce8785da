import { z } from 'zod';

/** Thrown when the environment does not satisfy an app's config schema; lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once into a typed object. The rest of the code never reads
 * `process.env`; a bad value stops start-up with a list of what is wrong.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(environment)'}: ${issue.message}`),
    );
  }
  return result.data;
}

/** `'true' | 'false' | '1' | '0'` from the environment, as a boolean. */
export const envBoolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', ''], { error: 'must be true or false' })
    .optional()
    .transform((value) => (value === undefined || value === '' ? fallback : value === 'true' || value === '1'));

/** One of a few named choices (`stripe` or `local`, say); empty counts as unset. */
export const envChoice = <const T extends readonly [string, ...string[]]>(choices: T) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(choices, { error: `must be ${choices.join(' or ')}` }).optional(),
  );

export const envPort = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** Settings every backend process shares. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` in development, JSON lines otherwise. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  /**
   * Prefix for every subject and stream name. Empty in production; tests give each suite its
   * own so suites never see each other's messages.
   */
  NATS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, { error: 'may hold letters, digits, - and _ only' })
    .default(''),
  /**
   * The app's own NATS user (`gateway`, `billing`, `generation-worker`...) and its password, when
   * the server checks them (deploy/nats: each user may use only its app's subjects). Unset: no
   * credentials are sent, as a server without users expects. One without the other is an error
   * (see checkNatsCredentials).
   */
  NATS_USER: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/, { error: 'may hold lower-case letters, digits and - only' })
      .optional(),
  ),
  NATS_PASSWORD: z.preprocess((value) => (value === '' ? undefined : value), z.string().optional()),
  /**
   * Copies JetStream keeps of every stream and KV bucket the apps create: 1 on a single server,
   * 3 (or 5) on a JetStream cluster. Every app must be given the same number.
   */
  JETSTREAM_REPLICAS: z.coerce
    .number()
    .int()
    .refine((replicas) => [1, 3, 5].includes(replicas), { error: 'must be 1, 3 or 5' })
    .default(1),
  /**
   * A size cap on the EVENTS stream besides its 30 days (oldest events go first), in bytes. The
   * server reserves it on its storage when the stream is created; unset: no size cap.
   */
  EVENTS_MAX_BYTES: z.coerce.number().int().positive().optional(),
  /**
   * Where traces go (OTLP over HTTP, e.g. http://otel-collector:4318); unset: tracing is off.
   * Read by `startTracing` before the app loads; parsed here so a bad value stops the app.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ error: 'must be an http(s):// URL' }).optional(),
  /** Milliseconds a request/reply call waits for an answer. */
  RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Reported by health checks and pings. */
  APP_VERSION: z.string().default('dev'),
});
export type BaseConfig = z.output<typeof baseConfigSchema>;

/**
 * NATS_USER and NATS_PASSWORD come together. Each app's schema applies it (a refinement on the
 * shared schemas would stop them being extended).
 */
export function checkNatsCredentials(
  config: Pick<BaseConfig, 'NATS_USER' | 'NATS_PASSWORD'>,
  context: z.RefinementCtx,
): void {
  if (config.NATS_USER && !config.NATS_PASSWORD) {
    context.addIssue({
      code: 'custom',
      path: ['NATS_PASSWORD'],
      message: `NATS_USER is set (${config.NATS_USER}) without NATS_PASSWORD: set the user's password, or neither`,
    });
  }
  if (config.NATS_PASSWORD && !config.NATS_USER) {
    context.addIssue({
      code: 'custom',
      path: ['NATS_USER'],
      message: 'NATS_PASSWORD is set without NATS_USER: name the user it belongs to, or set neither',
    });
  }
}

/** Settings of a service (an app with a database and a health port). */
export const serviceConfigSchema = baseConfigSchema.extend({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL' }),
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
  HTTP_HOST: z.string().default('127.0.0.1'),
  /** Port of the small HTTP server for /health and /metrics; 0 picks a free one. */
  HTTP_PORT: envPort(0),
  /** Milliseconds shutdown waits for in-flight work before closing connections. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().nonnegative().default(10_000),
  /** Failed attempts at handling an event before it is parked in the dead-letter table (never dropped). */
  EVENT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1_000).default(15),
  /** The longest pause between two attempts at an event (they start at 1 s and double). */
  EVENT_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(5 * 60_000),
});
export type ServiceConfig = z.output<typeof serviceConfigSchema>;

export const APP_CONFIG = Symbol('APP_CONFIG');
