#!/usr/bin/env node
// The monolith baseline of `npm run bench:gateway`: what a team would build instead of a gateway
// and services, one Fastify process that verifies the same session cookie the gateway does
// (jsonwebtoken with the gateway's key object and options, then the contract's claims schema and
// a revocation lookup) and runs the same SQL the services run against the same database, answering
// the same JSON with the same security headers. Started by the benchmark as a child process
// (so it has a process and an event loop of its own, as the gateway has), on 127.0.0.1 and a
// free port, which it prints as `listening <port>` once it listens; stops on SIGTERM.
// Settings: DATABASE_URL, JWT_SECRET, MEDIA_SECRET, SIGNED_URL_TTL_SECONDS (default 3600).
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import jwt from 'jsonwebtoken';
import pg from 'pg';

const { accessClaimsSchema } = await import('../../../libs/contracts/dist/index.js');
const { SECURITY_HEADERS } = await import('../../../gateway/dist/http/security-headers.js');
const { ACCESS_TOKEN_VERIFY_OPTIONS, accessTokenKey } = await import('../../../gateway/dist/auth/access-token-key.js');
const { UrlSigner } = await import('../../../services/media/dist/files/url-signer.js');
const { shareUrlOf } = await import('../../../services/media/dist/files/public-paths.js');

const ACCESS_COOKIE = 'likeness_access';
const UNAUTHENTICATED = {
  status: 401,
  code: 'AUTH.UNAUTHENTICATED',
  message: 'Please log in to continue.',
};

if (!process.env.JWT_SECRET || !process.env.DATABASE_URL || !process.env.MEDIA_SECRET) {
  throw new Error('DATABASE_URL, JWT_SECRET and MEDIA_SECRET are required');
}
const key = accessTokenKey(process.env.JWT_SECRET);
// The size of TypeORM's default pool, which each service uses.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const signer = new UrlSigner(process.env.MEDIA_SECRET, Number(process.env.SIGNED_URL_TTL_SECONDS ?? 3600));
/** Session id → until when it is revoked; the gateway keeps the same map (empty here as there). */
const revoked = new Map();

/** The signed-in user's id, or undefined for no valid, unrevoked access token. */
function userIdOf(request) {
  const token = request.cookies[ACCESS_COOKIE];
  if (!token) return undefined;
  let payload;
  try {
    payload = jwt.verify(token, key, ACCESS_TOKEN_VERIFY_OPTIONS);
  } catch {
    return undefined;
  }
  const claims = accessClaimsSchema.safeParse(payload);
  if (!claims.success || (revoked.get(claims.data.sid) ?? 0) > Date.now()) return undefined;
  return Number(claims.data.sub);
}

const app = Fastify({ logger: false });
await app.register(fastifyCookie);
app.addHook('onSend', (_request, reply, payload, done) => {
  void reply.headers(SECURITY_HEADERS).header('cache-control', 'no-store');
  done(null, payload);
});

app.get('/api/user', async (request, reply) => {
  const userId = userIdOf(request);
  if (userId === undefined) return reply.code(401).send(UNAUTHENTICATED);
  // auth's findById (TypeORM's findOneBy on a live user) and billing's balance, side by side.
  const [users, accounts] = await Promise.all([
    pool.query(
      `SELECT id, username, email, role, created_at FROM auth.users WHERE id = $1 AND deleted_at IS NULL LIMIT 1`,
      [userId],
    ),
    pool.query(`SELECT balance, held FROM billing.accounts WHERE user_id = $1`, [userId]),
  ]);
  const [user] = users.rows;
  if (!user) return reply.code(401).send(UNAUTHENTICATED);
  const account = accounts.rows[0] ?? { balance: 0, held: 0 };
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    credits: account.balance - account.held,
  };
});

app.get('/api/avatars', async (request, reply) => {
  const userId = userIdOf(request);
  if (userId === undefined) return reply.code(401).send(UNAUTHENTICATED);
  // media's AvatarsService.list: the first page of the user's rows, newest first, a missing date last.
  const limit = Number(request.query.limit ?? 24);
  const [{ rows }, counted] = await Promise.all([
    pool.query(
      `SELECT id, prompt_text, storage_key, thumbnail_key, custom_model_id, share_token, favourite, created_at
       FROM media.avatars WHERE user_id = $1 ORDER BY created_at DESC NULLS LAST, id DESC LIMIT $2`,
      [userId, limit + 1],
    ),
    pool.query(`SELECT count(*) FROM media.avatars WHERE user_id = $1`, [userId]),
  ]);
  if (rows.length > limit) throw new Error('the benchmark reads every avatar in one page');
  const items = rows.map((row) => ({
    id: row.id,
    promptText: row.prompt_text,
    imageUrl: signer.fileUrl(row.storage_key),
    thumbnailUrl: signer.fileUrl(row.thumbnail_key),
    shareUrl: shareUrlOf(row.share_token),
    customModelId: row.custom_model_id,
    createdAt: row.created_at?.toISOString() ?? null,
    favourite: row.favourite,
  }));
  return { items, nextCursor: null, total: Number(counted.rows[0].count) };
});

await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${app.server.address().port}`);
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
