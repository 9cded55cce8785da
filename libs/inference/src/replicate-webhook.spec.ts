import { createHmac, randomBytes } from 'node:crypto';
import { signReplicateWebhook, verifyReplicateWebhook } from './replicate-webhook.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const now = Date.UTC(2025, 0, 1, 12);
const timestamp = Math.floor(now / 1000);
const body = JSON.stringify({ id: 'tr_1', status: 'succeeded', output: { version: 'me/model:abc' } });

function headers(overrides: Record<string, string | undefined> = {}) {
  return {
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signReplicateWebhook(secret, 'msg_1', timestamp, body),
    ...overrides,
  };
}

describe(verifyReplicateWebhook.name, () => {
  it('should accept a webhook signed with the secret', () => {
    expect(verifyReplicateWebhook({ secret, headers: headers(), body, now })).toEqual({
      ok: true,
      id: 'msg_1',
      timestamp,
    });
  });

  it('should sign as the standard-webhooks scheme says', () => {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`msg_1.${timestamp}.${body}`).digest('base64');
    expect(signReplicateWebhook(secret, 'msg_1', timestamp, body)).toBe(`v1,${expected}`);
  });

  it('should accept a Buffer body', () => {
    expect(verifyReplicateWebhook({ secret, headers: headers(), body: Buffer.from(body), now }).ok).toBe(true);
  });

  it('should refuse a tampered body', () => {
    const tampered = body.replace('succeeded', 'failed');
    expect(verifyReplicateWebhook({ secret, headers: headers(), body: tampered, now })).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
  });

  it('should refuse a webhook signed with another secret', () => {
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    const signature = signReplicateWebhook(other, 'msg_1', timestamp, body);
    expect(verifyReplicateWebhook({ secret, headers: headers({ 'webhook-signature': signature }), body, now })).toEqual(
      { ok: false, reason: 'bad-signature' },
    );
  });

  it('should refuse a signature made for another webhook id', () => {
    expect(verifyReplicateWebhook({ secret, headers: headers({ 'webhook-id': 'msg_2' }), body, now }).ok).toBe(false);
  });

  it('should refuse a timestamp older than the tolerance', () => {
    const old = timestamp - 301;
    const signed = headers({
      'webhook-timestamp': String(old),
      'webhook-signature': signReplicateWebhook(secret, 'msg_1', old, body),
    });
    expect(verifyReplicateWebhook({ secret, headers: signed, body, now })).toEqual({ ok: false, reason: 'stale' });
    expect(verifyReplicateWebhook({ secret, headers: signed, body, now, toleranceSeconds: 600 }).ok).toBe(true);
  });

  it('should refuse a timestamp further in the future than the tolerance', () => {
    const future = timestamp + 301;
    const signed = headers({
      'webhook-timestamp': String(future),
      'webhook-signature': signReplicateWebhook(secret, 'msg_1', future, body),
    });
    expect(verifyReplicateWebhook({ secret, headers: signed, body, now })).toEqual({ ok: false, reason: 'stale' });
  });

  it('should accept a timestamp just within the tolerance', () => {
    const edge = timestamp - 300;
    const signed = headers({
      'webhook-timestamp': String(edge),
      'webhook-signature': signReplicateWebhook(secret, 'msg_1', edge, body),
    });
    expect(verifyReplicateWebhook({ secret, headers: signed, body, now }).ok).toBe(true);
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
    'should report missing headers when %s is absent',
    (name) => {
      expect(verifyReplicateWebhook({ secret, headers: headers({ [name]: undefined }), body, now })).toEqual({
        ok: false,
        reason: 'missing-headers',
      });
    },
  );

  it('should refuse a timestamp that is not a number', () => {
    expect(verifyReplicateWebhook({ secret, headers: headers({ 'webhook-timestamp': 'soon' }), body, now })).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
  });

  it('should accept when any of several signatures matches', () => {
    const good = signReplicateWebhook(secret, 'msg_1', timestamp, body);
    const rotated = `v1,${randomBytes(32).toString('base64')} v1a,ignored ${good}`;
    expect(verifyReplicateWebhook({ secret, headers: headers({ 'webhook-signature': rotated }), body, now }).ok).toBe(
      true,
    );
  });

  it('should refuse when none of several signatures matches, including a truncated one', () => {
    const good = signReplicateWebhook(secret, 'msg_1', timestamp, body);
    const signatures = `v1,${randomBytes(32).toString('base64')} ${good.slice(0, 20)} v2,${good.slice(3)}`;
    expect(
      verifyReplicateWebhook({ secret, headers: headers({ 'webhook-signature': signatures }), body, now }),
    ).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('should read headers in any case and from a fetch Headers object', () => {
    const given = headers();
    const upper = Object.fromEntries(Object.entries(given).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyReplicateWebhook({ secret, headers: upper, body, now }).ok).toBe(true);
    expect(verifyReplicateWebhook({ secret, headers: new Headers(given), body, now }).ok).toBe(true);
  });
});
