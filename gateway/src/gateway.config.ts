import { isIP } from 'node:net';
import { DEFAULT_SUPPORT_EMAIL } from '@likeness/contracts';
import { baseConfigSchema, checkNatsCredentials, envPort } from '@likeness/nest-kit';
import { z } from 'zod';

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY, as Fastify's trustProxy takes it: `false` (the default) trusts no one; a number
 * trusts that many hops in front; a list trusts those addresses and CIDR ranges. `true` is
 * refused: trusting every hop lets any client choose its own address (and so its rate limits).
 */
const trustProxySchema = () =>
  z
    .string()
    .optional()
    .transform((value, context): false | number | string[] => {
      const text = value?.trim() ?? '';
      if (text === '' || text === 'false') return false;
      if (/^[0-9]{1,2}$/.test(text)) return Number(text) === 0 ? false : Number(text);
      const entries = text.split(',').map((entry) => entry.trim());
      const invalid = entries.filter((entry) => !isAddressOrRange(entry));
      if (invalid.length === 0) return entries;
      context.addIssue({
        code: 'custom',
        message:
          text === 'true'
            ? 'true would trust every hop, so any client could choose its own address; set the number of proxies in front (e.g. 1) or their addresses and CIDR ranges instead'
            : `must be false, a number of proxy hops (e.g. 1), or proxy addresses and CIDR ranges separated by commas, not ${invalid.map((entry) => JSON.stringify(entry)).join(', ')}`,
      });
      return z.NEVER;
    });

/** An account's page on a social service: an http(s) URL, or unset. */
const socialUrl = () => z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional();

export const gatewayConfigSchema = baseConfigSchema
  .extend({
    HOST: z.string().default('127.0.0.1'),
    PORT: envPort(3000),
    /** The internal port's address, where Prometheus scrapes /metrics (never the public port). */
    METRICS_HOST: z.string().default('127.0.0.1'),
    /** The internal port for /metrics; 0 picks a free one. */
    METRICS_PORT: envPort(0),
    /** Verifies access tokens; the auth service signs with the same secret. */
    JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
    /** Media's HTTP port, where image bytes are streamed to and from (never over NATS). */
    MEDIA_URL: z.url({ error: 'must be an http:// URL' }).default('http://127.0.0.1:3001'),
    /** Authenticates the gateway's calls to media; media signs image URLs with it too. */
    MEDIA_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
    /** The built SPA to serve (single-machine mode); unset, the gateway serves the API only. */
    STATIC_DIR: z.string().optional(),
    /** The deployment's public origin: the served pages' share links (`og:image`) point there. */
    PUBLIC_URL: z.url({ error: 'must be a URL' }).optional(),
    /** Extra origins allowed to make state-changing calls, comma-separated (the gateway's own is always allowed). */
    PUBLIC_ORIGIN: z
      .string()
      .optional()
      .transform((value) => (value ? value.split(',').map((origin) => origin.trim().replace(/\/$/, '')) : [])),
    /** Which proxies in front may set X-Forwarded-* (client address, HTTPS): none, a hop count, or their addresses. */
    TRUST_PROXY: trustProxySchema(),
    /** `auto`: Secure cookies when the request came over HTTPS. */
    COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
    /** The window the per-address login and registration limits refill over (auth's per-account ones too). */
    RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(600),
    LOGIN_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
    REGISTER_LIMIT_PER_IP: z.coerce.number().int().positive().default(10),
    /** Password reset requests and reset attempts per address per window (auth limits each e-mail address too). */
    PASSWORD_RESET_LIMIT_PER_IP: z.coerce.number().int().positive().default(10),
    /** Password changes per signed-in user per window (each checks the current password). */
    PASSWORD_CHANGE_LIMIT_PER_USER: z.coerce.number().int().positive().default(10),
    /** Selfie uploads per signed-in user: a steady rate, and how many may come at once. */
    UPLOAD_LIMIT_PER_MINUTE: z.coerce.number().positive().default(10),
    UPLOAD_LIMIT_BURST: z.coerce.number().int().positive().default(10),
    /** Image conversions (GET /api/image-formatter) per signed-in user. */
    IMAGE_FORMATTER_LIMIT_PER_MINUTE: z.coerce.number().positive().default(60),
    IMAGE_FORMATTER_LIMIT_BURST: z.coerce.number().int().positive().default(30),
    /** Where people write for help: the SPA's "Contact Support" (GET /api/config); set it as the mailing apps' SUPPORT_EMAIL. */
    SUPPORT_EMAIL: z.email({ error: 'must be an e-mail address' }).default(DEFAULT_SUPPORT_EMAIL),
    /** The deployment's own social accounts, linked from the footer (GET /api/config); unset, none is shown. */
    SOCIAL_MICROBLOG_URL: socialUrl(),
    SOCIAL_PHOTOS_URL: socialUrl(),
    SOCIAL_CODE_URL: socialUrl(),
    /** A comment line on every open event stream this often, so proxies keep it open. */
    EVENT_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(1_000).default(15_000),
    /** Event streams (GET /api/events) one user may hold open on one gateway; another is refused with 429. */
    EVENT_STREAMS_PER_USER: z.coerce.number().int().positive().default(5),
    /** The `retry:` a browser waits before reconnecting a dropped stream (on shutdown, spread up to twice that). */
    EVENT_STREAM_RETRY_MS: z.coerce.number().int().positive().default(3_000),
    /** How many events of the stream a resume (Last-Event-ID) may be behind; further, the browser is told to read everything again. */
    EVENT_STREAM_RESUME_MAX_EVENTS: z.coerce.number().int().positive().default(10_000),
    /** Milliseconds /readyz waits for each service's ping. */
    READINESS_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
  })
  .superRefine(checkNatsCredentials);

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
