import { availableParallelism } from 'node:os';
import { checkMailConfig, mailConfigShape } from '@likeness/mail';
import { envPort, serviceConfigSchema, checkNatsCredentials } from '@likeness/nest-kit';
import { z } from 'zod';

const positiveInt = () => z.coerce.number().int().positive();

export const authConfigSchema = serviceConfigSchema
  .extend({
    HTTP_PORT: envPort(0),
    /** Signs access tokens; the gateway verifies with the same secret. */
    JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(900),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /** A rotated refresh token sent again within this time gets its successor back (requests that raced). */
    REFRESH_ROTATION_GRACE_SECONDS: z.coerce.number().int().min(1).max(300).default(30),
    /** The administrator (user id 1) created at first start; all three or none. */
    ADMIN_USERNAME: z.string().optional(),
    ADMIN_EMAIL: z.string().optional(),
    ADMIN_PASSWORD: z.string().optional(),
    /** The window the login limits refill over (the gateway's per-IP limits use the same). */
    RATE_LIMIT_WINDOW_SECONDS: positiveInt().default(600),
    /** Failed logins per account per window, whatever name or address they used. */
    LOGIN_LIMIT_PER_ACCOUNT: positiveInt().default(10),
    /** Failed logins per account from one address per window; below the account's, so one address cannot lock it. */
    LOGIN_LIMIT_PER_IP_AND_ACCOUNT: positiveInt().optional(),
    /** argon2 hashes computed at once; each uses a thread of libuv's pool (4 by default) and 19 MiB. */
    PASSWORD_HASH_CONCURRENCY: positiveInt().default(Math.max(1, Math.min(4, availableParallelism()))),
    /** argon2 hashes waiting for a turn; past that, logins and registrations are refused at once (503). */
    PASSWORD_HASH_QUEUE: z.coerce.number().int().nonnegative().default(64),
    // Mail (libs/mail): SMTP_URL, MAIL_PROVIDER, MAIL_FROM, SUPPORT_EMAIL, PUBLIC_URL, DATA_DIR.
    ...mailConfigShape,
    /** Password reset requests per e-mail address per window, known or not (the gateway limits each client address). */
    PASSWORD_RESET_LIMIT_PER_ADDRESS: positiveInt().default(5),
    PASSWORD_RESET_WINDOW_SECONDS: positiveInt().default(3600),
    /** Attempts at sending one mail before it is given up (and logged). */
    MAIL_MAX_ATTEMPTS: positiveInt().max(100).default(12),
    /** The wait before a mail's first retry; it doubles after each failure, up to 10 minutes. */
    MAIL_RETRY_INITIAL_MS: positiveInt().default(5_000),
    /** Mails one auth process sends at once. */
    MAIL_CONCURRENCY: positiveInt().max(64).default(4),
    /**
     * Events older than this get no mail: a consumer created on a stream that keeps 30 days of
     * events (a first deployment) must not mail everyone about last month.
     */
    MAIL_MAX_EVENT_AGE_HOURS: positiveInt().default(24),
  })
  .superRefine(checkNatsCredentials)
  .superRefine(checkMailConfig)
  .refine(
    (config) =>
      [config.ADMIN_USERNAME, config.ADMIN_EMAIL, config.ADMIN_PASSWORD].every((value) => !value) ||
      [config.ADMIN_USERNAME, config.ADMIN_EMAIL, config.ADMIN_PASSWORD].every(Boolean),
    { error: 'set ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD together, or none of them', path: ['ADMIN_USERNAME'] },
  )
  .refine(
    (config) =>
      config.LOGIN_LIMIT_PER_IP_AND_ACCOUNT === undefined ||
      config.LOGIN_LIMIT_PER_IP_AND_ACCOUNT < config.LOGIN_LIMIT_PER_ACCOUNT,
    {
      error: 'must be below LOGIN_LIMIT_PER_ACCOUNT, or one address could lock an account',
      path: ['LOGIN_LIMIT_PER_IP_AND_ACCOUNT'],
    },
  )
  .transform((config) => ({
    ...config,
    LOGIN_LIMIT_PER_IP_AND_ACCOUNT:
      config.LOGIN_LIMIT_PER_IP_AND_ACCOUNT ?? Math.max(1, Math.floor(config.LOGIN_LIMIT_PER_ACCOUNT / 2)),
  }));

export type AuthConfig = z.output<typeof authConfigSchema>;
