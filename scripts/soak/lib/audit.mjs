// The books of the whole product, checked across services after a run (`npm run audit`, and the
// soak at its end). What each check reads:
//  - read-only SQL on each service's own schema, where no RPC tells it: billing's ledger entries,
//    holds and payments; generation's jobs and their avatar ids; training's models; media's
//    selfie and avatar rows; every service's outbox, inbox and dead letters;
//  - billing's own answer over NATS (BillingRpc.getBalance, through the kit's RpcClient) for each
//    account's balance, when an RPC client is given;
//  - JetStream's list of durable consumers on EVENTS (who must handle what), when given;
//  - the object storage's own listing (the storage port: local files or S3).
// Every check returns its offending ids; a clean audit has none.
import { createHash } from 'node:crypto';

export const SERVICE_SCHEMAS = ['auth', 'billing', 'media', 'training', 'generation', 'reporting'];

/** How long a request to the database may take before the audit calls it stuck. */
const SETTLE_POLL_MS = 1_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What still moves: pending jobs, models in training, unpublished outbox rows, events the
 * consumers have not acknowledged. Empty when the system is at rest.
 * @param {{ query: (sql: string, params?: unknown[]) => Promise<any[]>, consumers?: () => Promise<ConsumerState[]> }} sources
 */
export async function inFlight({ query, consumers }) {
  const moving = [];
  const [jobs] = await query(`SELECT count(*)::int AS n FROM generation.generation_jobs WHERE status = 'pending'`);
  if (jobs.n > 0) moving.push(`${jobs.n} generation jobs pending`);
  const [models] = await query(
    `SELECT count(*)::int AS n FROM training.custom_models WHERE status IN ('pending', 'training')`,
  );
  if (models.n > 0) moving.push(`${models.n} models training`);
  for (const schema of SERVICE_SCHEMAS) {
    const [outbox] = await query(`SELECT count(*)::int AS n FROM ${schema}.outbox WHERE published_at IS NULL`);
    if (outbox.n > 0) moving.push(`${outbox.n} ${schema} outbox rows unpublished`);
  }
  for (const consumer of (await consumers?.()) ?? []) {
    if (consumer.pending + consumer.ackPending > 0) {
      moving.push(`${consumer.durable}: ${consumer.pending} pending, ${consumer.ackPending} unacknowledged`);
    }
  }
  return moving;
}

/**
 * Waits until nothing moves (twice in a row, a poll apart) or `timeoutMs` passes; returns what
 * still moved at the end (empty: settled).
 */
export async function settle(sources, { timeoutMs = 180_000, log = () => undefined } = {}) {
  const deadline = Date.now() + timeoutMs;
  let quietPolls = 0;
  let moving = [];
  let lastReport = 0;
  while (Date.now() < deadline) {
    moving = await inFlight(sources).catch((error) => [`the database or NATS did not answer: ${error.message}`]);
    quietPolls = moving.length === 0 ? quietPolls + 1 : 0;
    if (quietPolls >= 2) return [];
    if (moving.length > 0 && Date.now() - lastReport > 10_000) {
      log(`waiting for in-flight work: ${moving.join('; ')}`);
      lastReport = Date.now();
    }
    await sleep(SETTLE_POLL_MS);
  }
  return moving;
}

/**
 * @typedef {{ durable: string, filterSubject: string, pending: number, ackPending: number }} ConsumerState
 * @typedef {{ name: string, ok: boolean, checked: number, offending: string[], source: string }} CheckResult
 */

/**
 * Runs every check. `deletedAvatarIds`: avatars their owners deleted (the soak's record), which a
 * completed job may lack; without it, a missing avatar counts as lost.
 * @param {{
 *   query: (sql: string, params?: unknown[]) => Promise<any[]>,
 *   listObjects: (prefix: string) => AsyncIterable<{ key: string }>,
 *   consumers?: () => Promise<ConsumerState[]>,
 *   getBalance?: (userId: number) => Promise<{ balance: number, held: number }>,
 *   deletedAvatarIds?: Set<number>,
 * }} sources
 * @returns {Promise<CheckResult[]>}
 */
export async function auditBooks(sources) {
  return [
    await ledgerBalances(sources),
    await creditsAccountedFor(sources),
    await paymentsGrantedOnce(sources),
    ...(sources.getBalance ? [await billingAnswersItsLedger(sources)] : []),
    await holdsFollowTheirJobs(sources),
    await completedJobsHaveAvatars(sources),
    await rowsHaveObjects(sources),
    await objectsHaveRows(sources),
    await outboxPublished(sources),
    await eventsHandledOnce(sources),
  ];
}

const result = (name, source, checked, offending) => ({
  name,
  source,
  checked,
  ok: offending.length === 0,
  offending,
});

/** Each account's balance is the sum of its ledger entries, its held credits its open holds; the ledger sums to zero. */
async function ledgerBalances({ query }) {
  const rows = await query(
    `SELECT a.user_id, a.balance, a.held,
            coalesce((SELECT sum(e.amount) FROM billing.ledger_entries e WHERE e.account = 'user:' || a.user_id), 0)::int AS entries,
            coalesce((SELECT sum(h.amount) FROM billing.holds h WHERE h.user_id = a.user_id AND h.status = 'held'), 0)::int AS open_holds
     FROM billing.accounts a ORDER BY a.user_id`,
  );
  const offending = rows
    .filter((row) => row.balance !== row.entries || row.held !== row.open_holds)
    .map(
      (row) =>
        `user ${row.user_id}: balance ${row.balance} vs ledger ${row.entries}, held ${row.held} vs open holds ${row.open_holds}`,
    );
  const [total] = await query(`SELECT coalesce(sum(amount), 0)::int AS sum FROM billing.ledger_entries`);
  if (total.sum !== 0) offending.push(`the ledger sums to ${total.sum}, not 0`);
  const [orphans] = await query(
    `SELECT coalesce(string_agg(DISTINCT e.account, ', '), '') AS accounts FROM billing.ledger_entries e
     WHERE e.account LIKE 'user:%' AND NOT EXISTS (SELECT 1 FROM billing.accounts a WHERE 'user:' || a.user_id = e.account)`,
  );
  if (orphans.accounts) offending.push(`ledger entries of accounts that do not exist: ${orphans.accounts}`);
  return result(
    'ledger: balances = entries, held = open holds, entries sum to 0',
    'SQL billing',
    rows.length,
    offending,
  );
}

/**
 * Every credit granted (welcome, purchases, adjustments, less refunds and disputes) is in the
 * available balance, an open hold, or a captured charge: granted = available + held + captured.
 */
async function creditsAccountedFor({ query }) {
  const rows = await query(
    `SELECT a.user_id, a.balance - a.held AS available, a.held,
            coalesce((SELECT sum(e.amount) FROM billing.ledger_entries e
                      WHERE e.account = 'user:' || a.user_id AND e.reason <> 'usage'), 0)::int AS granted,
            coalesce((SELECT sum(h.amount) FROM billing.holds h WHERE h.user_id = a.user_id AND h.status = 'captured'), 0)::int AS captured
     FROM billing.accounts a ORDER BY a.user_id`,
  );
  const offending = rows
    .filter((row) => row.granted !== row.available + row.held + row.captured)
    .map(
      (row) =>
        `user ${row.user_id}: granted ${row.granted} ≠ available ${row.available} + held ${row.held} + captured ${row.captured}`,
    );
  // A captured hold is charged exactly once (its capture entries), a released or open one never.
  const charges = await query(
    `SELECT h.reference, h.status, h.amount,
            coalesce((SELECT sum(e.amount) FROM billing.ledger_entries e
                      WHERE e.idempotency_key = 'capture:' || h.reference AND e.account = 'user:' || h.user_id), 0)::int AS charged
     FROM billing.holds h`,
  );
  for (const hold of charges) {
    const expected = hold.status === 'captured' ? -hold.amount : 0;
    if (hold.charged !== expected) offending.push(`hold ${hold.reference} (${hold.status}) charged ${-hold.charged}`);
  }
  return result(
    'credits: granted = available + held + captured, each capture charged once',
    'SQL billing',
    rows.length,
    offending,
  );
}

/** A granted payment put its credits in the ledger once; a pending or failed one put none. */
async function paymentsGrantedOnce({ query }) {
  const rows = await query(
    `SELECT p.id, p.user_id, p.status, p.credits,
            coalesce((SELECT sum(e.amount) FROM billing.ledger_entries e
                      WHERE e.idempotency_key = 'payment:' || p.provider_payment_id AND e.account = 'user:' || p.user_id), 0)::int AS purchased
     FROM billing.payments p ORDER BY p.created_at`,
  );
  const offending = rows
    .filter((row) => row.purchased !== (['pending', 'failed'].includes(row.status) ? 0 : row.credits))
    .map((row) => `payment ${row.id} (${row.status}, ${row.credits} credits) put ${row.purchased} in the ledger`);
  return result('payments: each granted once, declined ones never', 'SQL billing', rows.length, offending);
}

/** What billing answers over NATS for each account is what its ledger says. */
async function billingAnswersItsLedger({ query, getBalance }) {
  const rows = await query(`SELECT user_id, balance, held FROM billing.accounts ORDER BY user_id`);
  const offending = [];
  for (const row of rows) {
    const answer = await getBalance(row.user_id).catch((error) => error);
    if (answer instanceof Error) {
      // Billing is down or unreachable: asking for every other account would only wait as long again.
      offending.push(`user ${row.user_id}: billing did not answer (${answer.message})`);
      break;
    }
    if (answer.balance !== row.balance || answer.held !== row.held) {
      offending.push(`user ${row.user_id}: RPC ${answer.balance}/${answer.held}, table ${row.balance}/${row.held}`);
    }
  }
  return result('billing over RPC (getBalance) = its ledger', 'RPC billing.accounts.get', rows.length, offending);
}

/**
 * Every job and training has its hold; an open hold belongs to work still running; ended work
 * resolved its hold the right way (completed: captured; failed: released).
 */
async function holdsFollowTheirJobs({ query }) {
  const holds = new Map(
    (await query(`SELECT reference, status, created_at FROM billing.holds`)).map((hold) => [hold.reference, hold]),
  );
  const work = [
    ...(await query(`SELECT 'job ' || id AS name, hold_reference, status FROM generation.generation_jobs`)),
    ...(await query(`SELECT 'model ' || id AS name, hold_reference, status FROM training.custom_models`)),
  ];
  const offending = [];
  const owned = new Set();
  for (const item of work) {
    owned.add(item.hold_reference);
    const hold = holds.get(item.hold_reference);
    const expected = { completed: 'captured', failed: 'released' }[item.status] ?? 'held';
    if (!hold) offending.push(`${item.name} (${item.status}) has no hold ${item.hold_reference}`);
    else if (hold.status !== expected)
      offending.push(`${item.name} is ${item.status} but its hold ${item.hold_reference} is ${hold.status}`);
  }
  // Deleted models and erased users leave holds with no work behind: those must not stay open.
  for (const [reference, hold] of holds) {
    if (!owned.has(reference) && hold.status === 'held') offending.push(`open hold ${reference} belongs to no job`);
  }
  return result(
    'holds: none open past its job, each resolved as its job ended',
    'SQL billing, generation, training',
    holds.size,
    offending,
  );
}

/**
 * A completed job recorded one avatar per image asked for, and each is in the gallery under the
 * job's source ref (or its owner deleted it since).
 */
async function completedJobsHaveAvatars({ query, deletedAvatarIds }) {
  const jobs = await query(
    `SELECT id, user_id, num_outputs, results FROM generation.generation_jobs WHERE status = 'completed' ORDER BY created_at`,
  );
  const avatars = new Map(
    (await query(`SELECT id, user_id, source_ref FROM media.avatars WHERE source_ref LIKE 'generation:%'`)).map(
      (avatar) => [avatar.id, avatar],
    ),
  );
  const erased = new Set((await query(`SELECT user_id FROM media.erased_users`)).map((row) => row.user_id));
  const offending = [];
  for (const job of jobs) {
    const ids = job.results?.avatarIds ?? [];
    if (ids.length !== job.num_outputs || new Set(ids).size !== ids.length) {
      offending.push(`job ${job.id} completed with avatars [${ids.join(', ')}] for ${job.num_outputs} images`);
      continue;
    }
    if (erased.has(job.user_id)) continue;
    for (const id of ids) {
      const avatar = avatars.get(id);
      if (!avatar) {
        if (!deletedAvatarIds?.has(id)) offending.push(`job ${job.id}: avatar ${id} is missing`);
      } else if (avatar.user_id !== job.user_id || !avatar.source_ref.startsWith(`generation:${job.id}:`)) {
        offending.push(`job ${job.id}: avatar ${id} is ${avatar.source_ref} of user ${avatar.user_id}`);
      }
    }
  }
  return result('completed jobs: every avatar made and kept', 'SQL generation, media', jobs.length, offending);
}

/** Objects under a prefix, as a set of keys. */
async function keysUnder(listObjects, prefix) {
  const keys = new Set();
  for await (const object of listObjects(prefix)) keys.add(object.key);
  return keys;
}

/** Every selfie and avatar row has its image and thumbnail in storage. */
async function rowsHaveObjects({ query, listObjects }) {
  const stored = await keysUnder(listObjects, 'users/');
  const rows = [
    ...(await query(`SELECT 'selfie ' || id AS name, storage_key, thumbnail_key FROM media.uploaded_images`)),
    ...(await query(`SELECT 'avatar ' || id AS name, storage_key, thumbnail_key FROM media.avatars`)),
  ];
  const offending = rows.flatMap((row) =>
    [row.storage_key, row.thumbnail_key].filter((key) => !stored.has(key)).map((key) => `${row.name}: ${key} missing`),
  );
  return result('rows: every selfie and avatar has its objects', 'SQL media, storage listing', rows.length, offending);
}

/**
 * No object is kept without a row: selfies and avatars belong to their rows, a training's zip to
 * a model still training, a staged output and the local generator's prediction (its request,
 * outputs and tag) to a job still running.
 */
async function objectsHaveRows({ query, listObjects }) {
  const rowKeys = new Set(
    (
      await query(
        `SELECT storage_key AS key FROM media.uploaded_images UNION ALL SELECT thumbnail_key FROM media.uploaded_images
         UNION ALL SELECT storage_key FROM media.avatars UNION ALL SELECT thumbnail_key FROM media.avatars`,
      )
    ).map((row) => row.key),
  );
  const training = new Set(
    (await query(`SELECT id FROM training.custom_models WHERE status IN ('pending', 'training')`)).map((row) => row.id),
  );
  const jobs = await query(`SELECT id, status, prediction_id FROM generation.generation_jobs`);
  const jobStatus = new Map(jobs.map((job) => [job.id, job.status]));
  const byPrediction = new Map(jobs.filter((job) => job.prediction_id).map((job) => [job.prediction_id, job]));
  const byTag = new Map(jobs.map((job) => [createHash('sha256').update(job.id).digest('hex'), job]));
  const ended = (job) => job === undefined || job.status !== 'pending';
  const offending = [];
  let checked = 0;
  for await (const { key } of listObjects('')) {
    checked += 1;
    const archive = /^users\/\d+\/training\/(\d+)\.zip$/.exec(key);
    const staged = /^staging\/generations\/([0-9a-f-]{36})\//.exec(key);
    const tag = /^staging\/local-predictions\/tags\/([0-9a-f]{64})$/.exec(key);
    const prediction = /^staging\/local-predictions\/([^/]+)\//.exec(key);
    if (archive) {
      if (!training.has(Number(archive[1]))) offending.push(`${key}: the training of model ${archive[1]} has ended`);
    } else if (staged) {
      if (jobStatus.get(staged[1]) !== 'pending') offending.push(`${key}: job ${staged[1]} has ended`);
    } else if (tag) {
      if (ended(byTag.get(tag[1]))) offending.push(`${key}: its job ${byTag.get(tag[1])?.id ?? '(none)'} has ended`);
    } else if (prediction) {
      const job = byPrediction.get(prediction[1]);
      if (ended(job)) offending.push(`${key}: its job ${job?.id ?? '(none)'} has ended`);
    } else if (!rowKeys.has(key)) {
      offending.push(`${key}: no row`);
    }
  }
  return result(
    'objects: none without its row',
    'storage listing, SQL media, training, generation',
    checked,
    offending,
  );
}

/** Every event and job message written to an outbox was published. */
async function outboxPublished({ query }) {
  const offending = [];
  let checked = 0;
  for (const schema of SERVICE_SCHEMAS) {
    const rows = await query(
      `SELECT id, subject, published_at IS NOT NULL AS published FROM ${schema}.outbox ORDER BY created_at`,
    );
    checked += rows.length;
    for (const row of rows) if (!row.published) offending.push(`${schema} ${row.subject} ${row.id} unpublished`);
  }
  return result('outbox: every event published', 'SQL every outbox', checked, offending);
}

/** A consumer's durable name: `<consuming service>-<producing service>-<Event>-v<n>`. */
function parseDurable(durable) {
  const match = /^([a-z]+)-([a-z]+)-([A-Za-z]+)-v(\d+)$/.exec(durable);
  return match
    ? { durable, service: match[1], subject: `events.${match[2]}.${match[3]}.v${match[4]}`, producer: match[2] }
    : undefined;
}

/**
 * Each event published was handled by each of its consumers, once (the inbox's key allows one
 * row per event and consumer): none missing, none parked as a dead letter, none handled that was
 * never published. The consumers are JetStream's durables when given, and every consumer an inbox
 * names.
 */
async function eventsHandledOnce({ query, consumers }) {
  const inboxes = new Map();
  const deadLetters = new Map();
  for (const schema of SERVICE_SCHEMAS) {
    for (const row of await query(`SELECT event_id, consumer FROM ${schema}.inbox`)) {
      const handled = inboxes.get(row.consumer) ?? new Set();
      handled.add(row.event_id);
      inboxes.set(row.consumer, handled);
    }
    for (const row of await query(`SELECT event_id, consumer, error FROM ${schema}.dead_letters`)) {
      deadLetters.set(`${row.consumer} ${row.event_id}`, row.error);
    }
  }
  const offending = [];
  const durables = await Promise.resolve(consumers?.() ?? []).catch((error) => {
    offending.push(`JetStream's consumers could not be listed: ${error.message}`);
    return [];
  });
  const names = new Set([...inboxes.keys(), ...durables.map((consumer) => consumer.durable)]);
  const published = new Map();
  const eventsOf = async (producer, subject) => {
    const key = `${producer} ${subject}`;
    if (!published.has(key)) {
      const rows = await query(`SELECT id FROM ${producer}.outbox WHERE subject = $1 AND published_at IS NOT NULL`, [
        subject,
      ]);
      published.set(key, new Set(rows.map((row) => row.id)));
    }
    return published.get(key);
  };
  let checked = 0;
  for (const name of [...names].sort()) {
    const consumer = parseDurable(name);
    if (!consumer || !SERVICE_SCHEMAS.includes(consumer.producer) || !SERVICE_SCHEMAS.includes(consumer.service)) {
      offending.push(`${name}: not a consumer name this audit knows`);
      continue;
    }
    const events = await eventsOf(consumer.producer, consumer.subject);
    const handled = inboxes.get(name) ?? new Set();
    checked += events.size;
    for (const id of events) {
      if (handled.has(id)) continue;
      const parked = deadLetters.get(`${name} ${id}`);
      offending.push(parked ? `${name}: event ${id} parked (${parked})` : `${name}: event ${id} not handled`);
    }
    for (const id of handled) if (!events.has(id)) offending.push(`${name}: handled ${id}, never published`);
  }
  return result(
    'events: each handled once by each consumer',
    'SQL outboxes and inboxes, JetStream consumers',
    checked,
    offending,
  );
}

/** The audit's result as lines for a terminal or a markdown file. */
export function formatAudit(results, { maxOffending = 20 } = {}) {
  const lines = [];
  for (const check of results) {
    lines.push(`${check.ok ? 'PASS' : 'FAIL'}  ${check.name}  (${check.checked} checked; ${check.source})`);
    for (const line of check.offending.slice(0, maxOffending)) lines.push(`      - ${line}`);
    if (check.offending.length > maxOffending) lines.push(`      … and ${check.offending.length - maxOffending} more`);
  }
  return lines;
}
