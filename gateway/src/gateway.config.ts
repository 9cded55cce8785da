import { baseConfigSchema, envBoolean, envPort } from '@likeness/nest-kit';
import { z } from 'zod';

export const gatewayConfigSchema = baseConfigSchema.extend({
  HOST: z.string().default('127.0.0.1'),
  PORT: envPort(3000),
  /** Verifies access tokens; the auth service signs with the same secret. */
  JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
  /** Media's HTTP port, where image bytes are streamed to and from (never over NATS). */
  MEDIA_URL: z.url({ error: 'must be an http:// URL' }).default('http://127.0.0.1:3001'),
  /** Authenticates the gateway's calls to media; media signs image URLs with it too. */
  MEDIA_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
  /** The built SPA to serve (single-machine mode); unset, the gateway serves the API only. */
  STATIC_DIR: z.string().optional(),
  /** Extra origins allowed to make state-changing calls, comma-separated (the gateway's own is always allowed). */
  PUBLIC_ORIGIN: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(',').map((origin) => origin.trim().replace(/\/$/, '')) : [])),
  /** Trust X-Forwarded-* from a proxy in front (an ingress). */
  TRUST_PROXY: envBoolean(false),
  /** `auto`: Secure cookies when the request came over HTTPS. */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(600),
  LOGIN_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  LOGIN_LIMIT_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
  REGISTER_LIMIT_PER_IP: z.coerce.number().int().positive().default(10),
  /** Milliseconds /readyz waits for each service's ping. */
  READINESS_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
});

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
