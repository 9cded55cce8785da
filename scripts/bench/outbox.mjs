#!/usr/bin/env node
// `npm run bench:outbox`: how fast the outbox moves events from a business transaction's commit to
// a consumer's committed effect, with the kit's real pieces and nothing else in the way.
//   - a "shop" app (this process): BENCH_PRODUCERS (default 8) producers, each committing an order
//     row and its `BenchOrderPlaced` event (`outbox.add`) in one transaction; the kit's OutboxRelay
//     publishes the events to JetStream;
//   - a "stats" app (a child process, as another service would be): an `@EventHandler` with the
//     inbox, in batches of at most 100 like reporting's, that adds each order to its customer's totals;
//   - per event it times, on this machine's one clock: commit → published (a core NATS subscriber
//     sees the relay's publish), published → the handler starts (delivery, the consumer's buffer,
//     the previous batch), the handler → its transaction committed (a NOTIFY sent in that
//     transaction reaches this process at the commit);
//   - each of BENCH_ROUNDS (default 3) rounds: an open-loop phase at BENCH_RATE (default 500)
//     events a second for BENCH_SECONDS (default 10) s (arrivals on a fixed schedule, whatever the
//     latency), then a saturation phase of BENCH_SATURATION_EVENTS (default 20,000) events, the
//     producers as fast as they can: events/s committed and handled end to end; then a burst of
//     BENCH_BURST_EVENTS (default 20,000) events committed BENCH_BURST_BATCH (default 500) to a
//     transaction (`outbox.addMany`, as a bulk change would), so the producers are no longer the
//     limit: events/s from the first commit to the last handled is what the relay and the consumer move;
//   - medians and spread of the rounds at the end.
// Its own database (schemas bench_outbox_shop and bench_outbox_stats) and NATS namespace, removed
// at the end. Uses DATABASE_URL / NATS_URL (the machine's servers by default). Results go to
// docs/benchmarks.md by hand, with the machine.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg, totalmem } from 'node:os';
import { Injectable, Module } from '@nestjs/common';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { z } from 'zod';

const {
  EventHandler,
  OutboxService,
  ServiceKitModule,
  createDeadLetterTable,
  createMessagingTables,
  createServiceApp,
  defineServiceDatabase,
  loadConfig,
  namespaced,
  runMigrations,
  serviceConfigSchema,
} = await import('../../libs/nest-kit/dist/index.js');
const { defineEvent } = await import('../../libs/contracts/dist/index.js');

const ROLE = process.argv[2] === 'consumer' ? 'consumer' : 'main';
const PRODUCERS = Number(process.env.BENCH_PRODUCERS ?? 8);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SATURATION_EVENTS = Number(process.env.BENCH_SATURATION_EVENTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BURST_EVENTS = Number(process.env.BENCH_BURST_EVENTS ?? 20_000);
const BURST_BATCH = Number(process.env.BENCH_BURST_BATCH ?? 500);
const CUSTOMERS = 1_000;
/** Under NOTIFY's 8,000-byte payload limit with one [id, time] pair (≈ 60 bytes) per event. */
const BATCH_MAX = 100;
const HANDLED_CHANNEL = 'bench_outbox_handled';
const PHASE_DEADLINE_MS = 120_000;

const OrderPlaced = defineEvent({
  service: 'benchshop',
  name: 'BenchOrderPlaced',
  version: 1,
  payload: z.object({ orderId: z.number().int(), customerId: z.number().int(), amountCents: z.number().int() }),
});

/** Milliseconds since the epoch, with a fraction: comparable between this process and the consumer's. */
const now = () => performance.timeOrigin + performance.now();

function schemaDatabase(schema, tables) {
  class Init1700000000000 {
    name = 'BenchOutboxInit1700000000000';
    async up(queryRunner) {
      await createMessagingTables(queryRunner, schema);
      await createDeadLetterTable(queryRunner, schema);
      for (const table of tables) await queryRunner.query(table);
    }
    async down(queryRunner) {
      await queryRunner.query(`DROP SCHEMA "${schema}" CASCADE`);
    }
  }
  return defineServiceDatabase({ schema, entities: [], migrations: [Init1700000000000] });
}

const shopDatabase = schemaDatabase('bench_outbox_shop', [
  `CREATE TABLE bench_outbox_shop.orders (id bigserial PRIMARY KEY, customer_id int NOT NULL,
     amount_cents int NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
]);
const statsDatabase = schemaDatabase('bench_outbox_stats', [
  `CREATE TABLE bench_outbox_stats.customer_totals (customer_id int PRIMARY KEY, orders int NOT NULL,
     amount_cents bigint NOT NULL)`,
]);

/** A Nest app of the kit with the given providers, no RPC server. */
function startApp(service, database, config, providers) {
  class BenchModule {}
  Module({})(BenchModule);
  return createServiceApp(
    {
      service,
      configSchema: serviceConfigSchema,
      database,
      servesRpc: () => false,
      module: (c) => ({
        module: BenchModule,
        imports: [ServiceKitModule.forRoot({ service, config: c, database: database(c) })],
        providers,
      }),
    },
    config,
  );
}

/** The consumer's process: applies each order to its customer's totals, and says when each batch committed. */
async function runConsumer() {
  class OrderTotals {
    async onOrderPlaced(event, context) {
      const startedAt = now();
      await context.manager.query(
        `INSERT INTO bench_outbox_stats.customer_totals (customer_id, orders, amount_cents) VALUES ($1, 1, $2)
         ON CONFLICT (customer_id) DO UPDATE
         SET orders = customer_totals.orders + 1, amount_cents = customer_totals.amount_cents + EXCLUDED.amount_cents`,
        [event.customerId, event.amountCents],
      );
      const handled = context.shared('bench', () => []);
      handled.push([context.envelope.id, Math.round(startedAt * 10) / 10]);
      // Delivered to the benchmark when (and only if) this transaction commits.
      context.beforeCommit('bench', () =>
        context.manager.query('SELECT pg_notify($1, $2)', [HANDLED_CHANNEL, JSON.stringify(handled)]),
      );
    }
  }
  Injectable()(OrderTotals);
  EventHandler(OrderPlaced, { batch: { max: BATCH_MAX } })(
    OrderTotals.prototype,
    'onOrderPlaced',
    Object.getOwnPropertyDescriptor(OrderTotals.prototype, 'onOrderPlaced'),
  );
  const config = loadConfig(serviceConfigSchema, process.env);
  const app = await startApp('reporting', statsDatabase, config, [OrderTotals]);
  process.stdout.write('ready\n');
  await once(process, 'SIGTERM');
  await app.close();
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => (Number.isFinite(value) ? value.toFixed(1) : '-');

/** Per event id: when it was committed, published, picked up by the handler, and its transaction committed. */
class Timings {
  committed = new Map();
  published = new Map();
  started = new Map();
  handled = new Map();

  stage(ids, from, to) {
    const values = [];
    for (const id of ids) {
      const a = this[from].get(id);
      const b = this[to].get(id);
      if (a !== undefined && b !== undefined) values.push(b - a);
    }
    return values.sort((x, y) => x - y);
  }
}

async function runMain() {
  const { createBenchEnvironment } = await import('./lib/bench-environment.mjs');
  const { freePort } = await import('../../libs/devstack/dist/index.js');
  const bench = await createBenchEnvironment('outbox', { DATABASE_POOL_SIZE: String(PRODUCERS + 3) });
  const { env, natsUrl, namespace } = bench;
  const timings = new Timings();
  let consumer;
  let shop;
  let nats;
  const listener = new pg.Client({ connectionString: env.DATABASE_URL });
  try {
    const config = loadConfig(serviceConfigSchema, { ...env, HTTP_PORT: String(await freePort()) });
    await runMigrations(shopDatabase(config));
    await runMigrations(statsDatabase(config));

    await listener.connect();
    listener.on('notification', ({ payload }) => {
      const at = now();
      for (const [id, startedAt] of JSON.parse(payload)) {
        timings.started.set(id, startedAt);
        timings.handled.set(id, at);
      }
    });
    await listener.query(`LISTEN ${HANDLED_CHANNEL}`);
    nats = await connect({ servers: natsUrl });
    const subscription = nats.subscribe(namespaced({ namespace }, OrderPlaced.subject));
    void (async () => {
      for await (const message of subscription) timings.published.set(message.json().id, now());
    })();

    consumer = spawn(process.execPath, [new URL(import.meta.url).pathname, 'consumer'], {
      env: { ...process.env, ...env, HTTP_PORT: String(await freePort()), DATABASE_POOL_SIZE: '4' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    consumer.stdout.setEncoding('utf8');
    await new Promise((resolve, reject) => {
      consumer.stdout.on('data', (text) => text.includes('ready') && resolve());
      consumer.once('exit', (code) => reject(new Error(`The consumer stopped at start-up (${code})`)));
    });
    shop = await startApp('billing', shopDatabase, config, []);
    const dataSource = shop.get(DataSource);
    const outbox = shop.get(OutboxService);

    let order = 0;
    const produce = async () => {
      order += 1;
      const customerId = 1 + ((order * 7919) % CUSTOMERS);
      let id;
      await dataSource.transaction(async (manager) => {
        const [row] = await manager.query(
          `INSERT INTO bench_outbox_shop.orders (customer_id, amount_cents) VALUES ($1, $2) RETURNING id`,
          [customerId, 500 + (order % 7) * 100],
        );
        id = await outbox.add(manager, OrderPlaced, { orderId: Number(row.id), customerId, amountCents: 500 });
      });
      timings.committed.set(id, now());
      return id;
    };
    const waitHandled = async (ids) => {
      const deadline = Date.now() + PHASE_DEADLINE_MS;
      while (Date.now() < deadline && ids.some((id) => !timings.handled.has(id))) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return ids.filter((id) => timings.handled.has(id)).length;
    };

    /** Arrivals on a fixed schedule; each waits for a free producer (a pool connection) if none is. */
    const atRate = async () => {
      const total = RATE * SECONDS;
      const ids = [];
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: PRODUCERS }, async () => {
          while (next < total) {
            const due = started + (next * 1000) / RATE;
            next += 1;
            const wait = due - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
            ids.push(await produce());
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const handled = await waitHandled(ids);
      return { ids, handled, offered: total / seconds };
    };

    /** Events/s committed (from `started` to `committedAt`) and handled end to end (to the last handled). */
    const throughput = async (ids, started, committedAt) => {
      const handled = await waitHandled(ids);
      const last = Math.max(...ids.map((id) => timings.handled.get(id) ?? 0));
      return {
        ids,
        handled,
        committedPerSecond: ids.length / ((committedAt - started) / 1000),
        endToEnd: handled / ((last - started) / 1000),
      };
    };

    /** Every producer as fast as it can, one event per transaction. */
    const saturated = async () => {
      const ids = [];
      const started = now();
      let next = 0;
      await Promise.all(
        Array.from({ length: PRODUCERS }, async () => {
          while (next < SATURATION_EVENTS) {
            next += 1;
            ids.push(await produce());
          }
        }),
      );
      return throughput(ids, started, now());
    };

    /** Events committed in batches by one producer: the relay and the consumer are the limit. */
    const burst = async () => {
      const ids = [];
      const started = now();
      while (ids.length < BURST_EVENTS) {
        const size = Math.min(BURST_BATCH, BURST_EVENTS - ids.length);
        const batch = await dataSource.transaction(async (manager) => {
          const rows = await manager.query(
            `INSERT INTO bench_outbox_shop.orders (customer_id, amount_cents)
             SELECT 1 + (n * 7919) % ${CUSTOMERS}, 500 FROM generate_series(1, $1) AS n RETURNING id, customer_id`,
            [size],
          );
          return outbox.addMany(
            manager,
            OrderPlaced,
            rows.map((row) => ({ orderId: Number(row.id), customerId: row.customer_id, amountCents: 500 })),
          );
        });
        const at = now();
        for (const id of batch) timings.committed.set(id, at);
        ids.push(...batch);
      }
      return throughput(ids, started, now());
    };

    // Warm-up, not reported: streams, consumers, plans and connections.
    const warm = [];
    for (let i = 0; i < 200; i += 1) warm.push(await produce());
    await waitHandled(warm);

    const machine = () =>
      `${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ` +
      `load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}; ${new Date().toISOString()}`;
    console.log(`Machine: ${machine()}`);
    console.log(`${PRODUCERS} producers; consumer batches of at most ${BATCH_MAX}`);
    console.log('');
    const rounds = [];
    console.log(
      `| round | at ${RATE}/s: handled | commit→handled p50 / p90 / p99 / max ms | commit→published p50 / p99 | ` +
        'published→handler p50 / p99 | handler→committed p50 / p99 | saturation: committed/s | handled/s end to end | ' +
        `commit→handled p50 / p99 ms | burst of ${BURST_EVENTS} in batches of ${BURST_BATCH}: committed/s | handled/s end to end | load average |`,
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (let round = 1; round <= ROUNDS; round += 1) {
      const rate = await atRate();
      const total = timings.stage(rate.ids, 'committed', 'handled');
      const relay = timings.stage(rate.ids, 'committed', 'published');
      const delivery = timings.stage(rate.ids, 'published', 'started');
      const handling = timings.stage(rate.ids, 'started', 'handled');
      const saturation = await saturated();
      const saturatedTotal = timings.stage(saturation.ids, 'committed', 'handled');
      const bulk = await burst();
      const result = {
        p50: percentile(total, 0.5),
        p99: percentile(total, 0.99),
        relayP99: percentile(relay, 0.99),
        deliveryP99: percentile(delivery, 0.99),
        handlingP99: percentile(handling, 0.99),
        endToEnd: saturation.endToEnd,
        committedPerSecond: saturation.committedPerSecond,
        burstEndToEnd: bulk.endToEnd,
        burstCommittedPerSecond: bulk.committedPerSecond,
      };
      rounds.push(result);
      console.log(
        `| ${round} | ${rate.handled}/${rate.ids.length} (${rate.offered.toFixed(0)}/s offered) | ` +
          `${[0.5, 0.9, 0.99].map((p) => ms(percentile(total, p))).join(' / ')} / ${ms(total.at(-1))} | ` +
          `${ms(percentile(relay, 0.5))} / ${ms(result.relayP99)} | ${ms(percentile(delivery, 0.5))} / ${ms(result.deliveryP99)} | ` +
          `${ms(percentile(handling, 0.5))} / ${ms(result.handlingP99)} | ${saturation.committedPerSecond.toFixed(0)} | ` +
          `${saturation.endToEnd.toFixed(0)} (${saturation.handled}/${saturation.ids.length}) | ` +
          `${ms(percentile(saturatedTotal, 0.5))} / ${ms(percentile(saturatedTotal, 0.99))} | ` +
          `${bulk.committedPerSecond.toFixed(0)} | ${bulk.endToEnd.toFixed(0)} (${bulk.handled}/${bulk.ids.length}) | ` +
          `${loadavg()[0].toFixed(1)} |`,
      );
    }
    const summary = (key, digits = 1) => {
      const values = rounds.map((round) => round[key]);
      return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
    };
    console.log('');
    console.log(`Medians of ${ROUNDS} rounds (min–max):`);
    console.log(`  at ${RATE}/s, commit→handled p50 ${summary('p50')} ms, p99 ${summary('p99')} ms (target < 50 ms)`);
    console.log(
      `  p99 by stage: commit→published ${summary('relayP99')} ms, published→handler ${summary('deliveryP99')} ms, ` +
        `handler→committed ${summary('handlingP99')} ms`,
    );
    console.log(
      `  saturation: ${summary('endToEnd', 0)} events/s end to end (target ≥ 2,000), ${summary('committedPerSecond', 0)} committed/s`,
    );
    console.log(
      `  burst: ${summary('burstEndToEnd', 0)} events/s end to end (target ≥ 2,000), ${summary('burstCommittedPerSecond', 0)} committed/s`,
    );
    console.log(`Machine at the end: ${machine()}`);
  } finally {
    if (consumer && consumer.exitCode === null) {
      consumer.kill('SIGTERM');
      await once(consumer, 'exit');
    }
    await shop?.close();
    await nats?.close();
    await listener.end().catch(() => undefined);
    await bench.cleanup();
  }
}

if (ROLE === 'consumer') await runConsumer();
else await runMain();
