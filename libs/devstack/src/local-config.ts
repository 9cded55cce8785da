import { z } from 'zod';

// An empty variable (`DATABASE_URL=`) counts as unset.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** The settings of `npm start` and `npm run dev`, from the environment (see README.md). */
export const localConfigSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** The embedded PostgreSQL, NATS's store, the generated secrets and local images; relative to the repository. */
  DATA_DIR: z.string().min(1).default('.data'),
  /** Unset: an embedded PostgreSQL under DATA_DIR. */
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL' })),
  /** Unset: a `nats-server` from PATH with JetStream under DATA_DIR. */
  NATS_URL: optional(z.string()),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_FORMAT: z.enum(['json', 'pretty']).default('pretty'),
  /** Unset: generated once into DATA_DIR/secrets.json. */
  JWT_SECRET: optional(z.string()),
  MEDIA_SECRET: optional(z.string()),
  /** Where links in mails point; unset: this machine's address and PORT. */
  PUBLIC_URL: optional(z.url({ error: 'must be a URL' })),
});
export type LocalConfig = z.output<typeof localConfigSchema>;

/** Parses the environment once; a bad value throws with a list of everything that is wrong. */
export function loadLocalConfig(env: NodeJS.ProcessEnv): LocalConfig {
  const result = localConfigSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  - ${issue.path.map(String).join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return result.data;
}
