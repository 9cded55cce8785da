import type { CreditHistoryEntry, CreditHistoryKind, CreditHistoryResponse, HoldStatus } from '@likeness/contracts';
import { queryRows } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { userAccount } from './credit-ledger.js';

interface HistoryRow {
  id: string;
  kind: CreditHistoryKind;
  credits: number;
  created_at: Date;
  reference: string | null;
  hold_status: HoldStatus | null;
  package_name: string | null;
  amount_cents: number | null;
  /** An administrator's adjustment: the reason they gave (null for other lines). */
  adjustment_reason: string | null;
  total: string;
}

/** What a hold pays for, in the words of its reference's kind (`training:<id>`, `generation:<id>`). */
const WORK: Record<string, string> = { training: 'Model training', generation: 'Avatar generation' };

/**
 * A user's credit history, newest first: their side of the ledger (welcome credits, purchases,
 * refunds, disputes, support's adjustments with their reason; charges show as the capture of their hold) and their holds, each a line
 * when it was made and another when it was captured or released. `credits` is what a line did to
 * the credits the user can spend: a hold takes them (-30), its capture changes nothing more (0),
 * its release gives them back (+30). Only the caller's own lines, by their account and user id.
 */
@Injectable()
export class CreditHistoryService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async page(userId: number, page: number, pageSize: number): Promise<CreditHistoryResponse> {
    const rows = await queryRows<HistoryRow>(
      this.dataSource.manager,
      `WITH lines AS (
         SELECT 'ledger:' || e.id AS id,
                CASE WHEN e.reason IN ('welcome', 'purchase', 'refund', 'dispute') THEN e.reason ELSE 'adjustment' END AS kind,
                e.amount AS credits, e.created_at, NULL::text AS reference, NULL::text AS hold_status,
                p.package_id, p.amount_cents, a.reason AS adjustment_reason
         FROM billing.ledger_entries e
         LEFT JOIN billing.payments p
           ON e.reason IN ('purchase', 'refund', 'dispute')
          AND p.provider_payment_id = split_part(e.idempotency_key, ':', 2)
          AND p.user_id = $1
         LEFT JOIN billing.credit_adjustments a
           ON e.reason = 'adjustment'
          AND a.user_id = $1
          AND e.idempotency_key = 'adjustment:' || a.request_id::text
         WHERE e.account = $2 AND e.reason <> 'usage'
         UNION ALL
         SELECT 'hold:' || h.id, 'hold', -h.amount, h.created_at, h.reference, h.status, NULL, NULL, NULL
         FROM billing.holds h WHERE h.user_id = $1
         UNION ALL
         SELECT CASE h.status WHEN 'captured' THEN 'capture:' ELSE 'release:' END || h.id,
                CASE h.status WHEN 'captured' THEN 'capture' ELSE 'release' END,
                CASE h.status WHEN 'captured' THEN 0 ELSE h.amount END,
                h.resolved_at, h.reference, NULL, NULL, NULL, NULL
         FROM billing.holds h WHERE h.user_id = $1 AND h.status IN ('captured', 'released')
       )
       SELECT l.id, l.kind, l.credits, l.created_at, l.reference, l.hold_status,
              pk.name AS package_name, CASE WHEN l.kind = 'purchase' THEN l.amount_cents END AS amount_cents,
              l.adjustment_reason, count(*) OVER () AS total
       FROM lines l LEFT JOIN billing.credit_packages pk ON pk.id = l.package_id
       ORDER BY l.created_at DESC, l.id DESC
       LIMIT $3 OFFSET $4`,
      [userId, userAccount(userId), pageSize, (page - 1) * pageSize],
    );
    return {
      entries: rows.map(toEntry),
      page,
      pageSize,
      // Past the last page there are no rows to carry the count.
      total: rows[0] ? Number(rows[0].total) : await this.count(userId),
    };
  }

  private async count(userId: number): Promise<number> {
    const [row] = await queryRows<{ total: string }>(
      this.dataSource.manager,
      `SELECT (SELECT count(*) FROM billing.ledger_entries WHERE account = $2 AND reason <> 'usage')
            + (SELECT count(*) FROM billing.holds WHERE user_id = $1)
            + (SELECT count(*) FROM billing.holds WHERE user_id = $1 AND status IN ('captured', 'released')) AS total`,
      [userId, userAccount(userId)],
    );
    return Number(row?.total ?? 0);
  }
}

function toEntry(row: HistoryRow): CreditHistoryEntry {
  return {
    id: row.id,
    kind: row.kind,
    credits: row.credits,
    description: describe(row),
    createdAt: row.created_at.toISOString(),
    reference: row.reference,
    holdStatus: row.hold_status,
    amountCents: row.amount_cents,
  };
}

function describe(row: HistoryRow): string {
  const work = WORK[row.reference?.split(':')[0] ?? ''] ?? 'Work';
  const pack = row.package_name ?? 'Credit package';
  switch (row.kind) {
    case 'welcome':
      return 'Welcome credits';
    case 'purchase':
      return `${pack} purchased`;
    case 'refund':
      return `${pack} refunded: its credits taken back`;
    case 'dispute':
      return `${pack} disputed: its credits taken back`;
    case 'hold':
      return `${work}: credits held while it runs`;
    case 'capture':
      return `${work}: held credits charged`;
    case 'release':
      return `${work}: held credits returned (not charged)`;
    case 'adjustment':
      // An administrator's, in their words; any other correction of the ledger stays generic.
      if (row.adjustment_reason === null) return 'Credit adjustment';
      return `Credits ${row.credits > 0 ? 'added' : 'removed'} by support: ${row.adjustment_reason}`;
  }
}
