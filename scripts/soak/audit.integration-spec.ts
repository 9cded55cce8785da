import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalObjectStorage } from '@likeness/storage';
import { type TestDatabase, createTestDatabase, migrateAll, testNatsUrl } from '@likeness/testing';
import pg from 'pg';
import { type CheckResult, auditBooks, inFlight } from './lib/audit.mjs';

// The audit of `npm run soak` / `npm run audit` on the services' real schemas (migrated by the
// built apps): a consistent state passes every check; a broken one fails exactly the checks
// that see its breakage, naming the offending rows.
describe(auditBooks.name, () => {
  let database: TestDatabase;
  let db: pg.Pool;
  let objectsDir: string;
  let storage: LocalObjectStorage;
  const query = async (sql: string, params?: unknown[]) => (await db.query(sql, params)).rows;
  const audit = () => auditBooks({ query, listObjects: (prefix) => storage.list(prefix) });
  const failing = (results: CheckResult[]) =>
    Object.fromEntries(results.filter((check) => !check.ok).map((check) => [check.name, check.offending]));

  const user = 7;
  const completedJob = randomUUID();
  const pendingJob = randomUUID();
  const event = randomUUID();
  const consumer = 'reporting-billing-CreditsChanged-v1';
  let avatarId: number;

  const put = (key: string) => storage.put(key, Buffer.from('image'), { contentType: 'image/webp' });
  const entries = (key: string, amount: number, reason: string, counter: string) =>
    query(
      `INSERT INTO billing.ledger_entries (account, amount, reason, idempotency_key) VALUES ($1, $2, $3, $4), ($5, $6, $3, $4)`,
      [`user:${user}`, amount, reason, key, counter, -amount],
    );
  const hold = (reference: string, amount: number, status: string) =>
    query(
      `INSERT INTO billing.holds (user_id, reference, amount, status, expires_at) VALUES ($1, $2, $3, $4, now() + interval '1 hour')`,
      [user, reference, amount, status],
    );

  beforeAll(async () => {
    database = await createTestDatabase('audit');
    await migrateAll({
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: database.url,
        NATS_URL: testNatsUrl(),
        JWT_SECRET: 'audit-test-secret-audit-test-secret-42',
        MEDIA_SECRET: 'audit-test-media-secret-media-secret-42',
      },
    });
    db = new pg.Pool({ connectionString: database.url, max: 2 });
    objectsDir = mkdtempSync(join(tmpdir(), 'likeness-audit-'));
    storage = new LocalObjectStorage(objectsDir);

    // Welcome 5 + a purchase of 50, a training (30) and a one-image generation (5) charged, a
    // generation (5) still running: balance 20 of which 5 held. A declined payment granted nothing.
    await entries(`welcome:${user}`, 5, 'welcome', 'system:promotions');
    await query(
      `INSERT INTO billing.payments (user_id, provider, provider_payment_id, package_id, amount_cents, credits, status, succeeded_at)
       VALUES ($1, 'local', 'pi_paid', 'starter', 500, 50, 'succeeded', now()), ($1, 'local', 'pi_declined', 'starter', 500, 50, 'failed', NULL)`,
      [user],
    );
    await entries('payment:pi_paid', 50, 'purchase', 'system:sales');
    const [model] = await query(
      `INSERT INTO training.custom_models (user_id, model_name, trigger_word, status, provider, version, hold_reference, reference_image_ids)
       VALUES ($1, 'Model', 'face', 'completed', 'local', 'local:1', 'training:t1', '{1}') RETURNING id`,
      [user],
    );
    await hold('training:t1', 30, 'captured');
    await entries('capture:training:t1', -30, 'usage', 'system:usage');
    await hold(`generation:${completedJob}`, 5, 'captured');
    await entries(`capture:generation:${completedJob}`, -5, 'usage', 'system:usage');
    await hold(`generation:${pendingJob}`, 5, 'held');
    await query(`INSERT INTO billing.accounts (user_id, balance, held) VALUES ($1, 20, 5)`, [user]);

    const [avatar] = await query(
      `INSERT INTO media.avatars (user_id, prompt_text, custom_model_id, source_ref, share_token, storage_key, thumbnail_key)
       VALUES ($1, 'face', $2, $3, $4, $5, $6) RETURNING id`,
      [
        user,
        model?.id,
        `generation:${completedJob}:1`,
        'a'.repeat(64),
        `users/${user}/avatars/a.webp`,
        `users/${user}/avatars/a.thumb.webp`,
      ],
    );
    avatarId = avatar?.id as number;
    await put(`users/${user}/avatars/a.webp`);
    await put(`users/${user}/avatars/a.thumb.webp`);
    await query(
      `INSERT INTO media.uploaded_images (user_id, storage_key, thumbnail_key, original_filename, content_type, byte_size, width, height)
       VALUES ($1, $2, $3, 's.jpg', 'image/jpeg', 5, 512, 512)`,
      [user, `users/${user}/selfies/s.jpg`, `users/${user}/selfies/s.thumb.webp`],
    );
    await put(`users/${user}/selfies/s.jpg`);
    await put(`users/${user}/selfies/s.thumb.webp`);
    await query(
      `INSERT INTO generation.generation_jobs (id, user_id, custom_model_id, prompt_text, num_outputs, status, provider, model_version, hold_reference, results)
       VALUES ($1::uuid, $3, $4, 'face', 1, 'completed', 'local', 'local:1', 'generation:' || $1, $5),
              ($2::uuid, $3, $4, 'face', 1, 'pending', 'local', 'local:1', 'generation:' || $2, NULL)`,
      [completedJob, pendingJob, user, model?.id, { avatarIds: [avatarId] }],
    );

    await query(`INSERT INTO billing.outbox (id, subject, envelope, published_at) VALUES ($1, $2, '{}', now())`, [
      event,
      'events.billing.CreditsChanged.v1',
    ]);
    await query(`INSERT INTO reporting.inbox (event_id, consumer) VALUES ($1, $2)`, [event, consumer]);
  });

  afterAll(async () => {
    await db?.end();
    await database?.drop();
    if (objectsDir) rmSync(objectsDir, { recursive: true, force: true });
  });

  it('should pass every check on consistent books, and see the running job as in flight', async () => {
    const results = await audit();

    expect(failing(results)).toEqual({});
    expect(results.map((check) => check.checked)).toEqual([1, 1, 2, 3, 1, 2, 4, 1, 1]);
    expect(await inFlight({ query })).toEqual(['1 generation jobs pending']);
  });

  it('should report exactly the hold without a job, the avatar without its objects, the stray object and the unhandled event', async () => {
    const orphanHold = `generation:${randomUUID()}`;
    await hold(orphanHold, 5, 'held');
    await query(`UPDATE billing.accounts SET held = held + 5 WHERE user_id = $1`, [user]);
    const [lost] = await query(
      `INSERT INTO media.avatars (user_id, prompt_text, custom_model_id, source_ref, share_token, storage_key, thumbnail_key)
       VALUES ($1, 'face', NULL, 'generation:lost:1', $2, $3, $4) RETURNING id`,
      [user, 'b'.repeat(64), `users/${user}/avatars/lost.webp`, `users/${user}/avatars/lost.thumb.webp`],
    );
    await put(`users/${user}/avatars/stray.webp`);
    const unhandled = randomUUID();
    await query(`INSERT INTO billing.outbox (id, subject, envelope, published_at) VALUES ($1, $2, '{}', now())`, [
      unhandled,
      'events.billing.CreditsChanged.v1',
    ]);

    expect(failing(await audit())).toEqual({
      'holds: none open past its job, each resolved as its job ended': [`open hold ${orphanHold} belongs to no job`],
      'rows: every selfie and avatar has its objects': [
        `avatar ${lost?.id}: users/${user}/avatars/lost.webp missing`,
        `avatar ${lost?.id}: users/${user}/avatars/lost.thumb.webp missing`,
      ],
      'objects: none without its row': [`users/${user}/avatars/stray.webp: no row`],
      'events: each handled once by each consumer': [`${consumer}: event ${unhandled} not handled`],
    });
  });
});
