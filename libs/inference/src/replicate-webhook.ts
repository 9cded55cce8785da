import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Replicate signs webhooks the standard-webhooks way: HMAC-SHA256 over `${id}.${timestamp}.${body}`
 * with the key base64-encoded after `whsec_`, sent as space-separated `v1,<base64>` entries. This is
 * our own check rather than the SDK's `validateWebhook`, which skips the timestamp (so a captured
 * webhook could be replayed forever). Seeing each `webhook-id` once is the caller's job.
 */

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** Node's `IncomingHttpHeaders`, a plain record (any case) or a fetch `Headers`. */
export type ReplicateWebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyReplicateWebhookInput {
  /** `whsec_<base64>`, from Replicate's webhooks/default/secret endpoint. */
  secret: string;
  headers: ReplicateWebhookHeaders;
  /** The raw body exactly as received: a re-serialised JSON would not match. */
  body: string | Buffer;
  /** Milliseconds since the epoch. */
  now?: number;
  toleranceSeconds?: number;
}

export type ReplicateWebhookVerdict =
  { ok: true; id: string; timestamp: number } | { ok: false; reason: 'missing-headers' | 'bad-signature' | 'stale' };

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

function header(headers: ReplicateWebhookHeaders, name: string): string | undefined {
  let value: string | string[] | null | undefined;
  if (headers instanceof Headers) value = headers.get(name);
  else value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() || undefined;
}

/** The `webhook-signature` value for a body: `v1,<base64 HMAC-SHA256>`. */
export function signReplicateWebhook(
  secret: string,
  id: string,
  timestamp: number | string,
  body: string | Buffer,
): string {
  const digest = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${digest}`;
}

export function verifyReplicateWebhook({
  secret,
  headers,
  body,
  now = Date.now(),
  toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
}: VerifyReplicateWebhookInput): ReplicateWebhookVerdict {
  const id = header(headers, 'webhook-id');
  const timestampText = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestampText || !signatures) return { ok: false, reason: 'missing-headers' };
  if (!/^\d+$/.test(timestampText)) return { ok: false, reason: 'bad-signature' };
  const timestamp = Number(timestampText);
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return { ok: false, reason: 'stale' };

  const expected = Buffer.from(signReplicateWebhook(secret, id, timestampText, body).slice('v1,'.length), 'base64');
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true, id, timestamp } : { ok: false, reason: 'bad-signature' };
}
