// Connects the audit (./audit.mjs) to a running stack: its database (read-only queries on each
// service's schema), NATS (JetStream's consumers, billing's RPCs) and its object storage.
import { BillingRpc, EVENTS_STREAM } from '@likeness/contracts';
import { RpcClient, namespacedStream } from '@likeness/nest-kit';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { auditBooks, formatAudit, settle } from './audit.mjs';

/**
 * Waits (bounded) for in-flight work to settle, then runs every check.
 * @param {{
 *   databaseUrl: string,
 *   natsUrl?: string,
 *   namespace?: string,
 *   storage: import('@likeness/storage').ObjectStorage,
 *   deletedAvatarIds?: Set<number>,
 *   settleMs?: number,
 *   log?: (line: string) => void,
 * }} options
 * @returns {Promise<{ results: import('./audit.mjs').CheckResult[], unsettled: string[], ok: boolean, lines: string[] }>}
 */
export async function runAudit({
  databaseUrl,
  natsUrl,
  namespace = '',
  storage,
  deletedAvatarIds,
  settleMs = 180_000,
  log = () => undefined,
}) {
  // The audit only reads: a transaction that tries to write fails.
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2, options: '-c default_transaction_read_only=on' });
  const query = async (sql, params) => (await db.query(sql, params)).rows;
  const nats = natsUrl ? await connect({ servers: natsUrl.split(','), name: 'likeness-audit' }) : undefined;
  try {
    const sources = {
      query,
      listObjects: (prefix) => storage.list(prefix),
      deletedAvatarIds,
      ...(nats ? natsSources(nats, namespace) : {}),
    };
    const unsettled = await settle(sources, { timeoutMs: settleMs, log });
    if (unsettled.length > 0)
      log(`still in flight after ${settleMs / 1000} s, judging anyway: ${unsettled.join('; ')}`);
    const results = await auditBooks(sources);
    const ok = unsettled.length === 0 && results.every((check) => check.ok);
    const lines = [
      unsettled.length === 0
        ? 'PASS  settled: no pending job, training, unpublished event or unacknowledged delivery'
        : `FAIL  settled within ${settleMs / 1000} s: ${unsettled.join('; ')}`,
      ...formatAudit(results),
    ];
    return { results, unsettled, ok, lines };
  } finally {
    await nats?.drain();
    await db.end();
  }
}

/** JetStream's consumers of EVENTS and billing's balance, over NATS. */
function natsSources(nats, namespace) {
  const settings = { url: '', name: 'likeness-audit', namespace };
  const rpc = new RpcClient(nats, settings, 10_000);
  return {
    consumers: async () => {
      const jsm = await jetstreamManager(nats);
      const states = [];
      for await (const info of jsm.consumers.list(namespacedStream(settings, EVENTS_STREAM))) {
        // The services' durables; the gateway's ordered consumers (no inbox, no ack) are not theirs.
        if (!info.config.durable_name) continue;
        states.push({
          durable: info.name,
          filterSubject: info.config.filter_subject ?? '',
          pending: info.num_pending,
          ackPending: info.num_ack_pending,
        });
      }
      return states;
    },
    getBalance: (userId) => rpc.call(BillingRpc.getBalance, { userId }),
  };
}
