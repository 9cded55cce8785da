import { type Balance, BillingEvents, type HoldStatus } from '@likeness/contracts';
import { DomainError, OutboxService, queryRows } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The system accounts that balance the users' side of each movement. */
export type SystemAccount =
  | 'system:promotions'
  | 'system:sales'
  | 'system:usage'
  | 'system:reversals'
  /** What administrators granted or deducted by hand. */
  | 'system:adjustments';

export interface Movement {
  userId: number;
  /** Positive adds credits, negative takes them. */
  amount: number;
  reason: string;
  /** Makes the movement happen at most once: `payment:<id>`, `welcome:<userId>`... */
  key: string;
  counterAccount: SystemAccount;
}

interface AccountRow {
  balance: number;
  held: number;
}

export const userAccount = (userId: number) => `user:${userId}`;

/**
 * Sets an account's balance_changed_at in an UPDATE of its row (which holds the row's lock until
 * commit): now, or a millisecond after the previous change if the clock says otherwise. So one
 * account's CreditsChanged events, which carry it as their occurredAt, are strictly in commit
 * order by time, whatever the clocks of billing's replicas; $1 is now (a Date, milliseconds).
 */
const BALANCE_CHANGED_NOW = `balance_changed_at = GREATEST($1::timestamptz, account.balance_changed_at + interval '1 millisecond')`;

export interface HoldRequest {
  userId: number;
  amount: number;
  reference: string;
  expiresAt: Date;
}

export interface ReserveResult {
  userId: number;
  status: HoldStatus;
  amount: number;
  /** What the account has available once the hold is in place. */
  available: number;
}

/** Another replica created one of the batch's references meanwhile; running the batch again sorts it out. */
export class HoldRaceError extends Error {
  constructor() {
    super('A hold reference was created concurrently');
  }
}

function sumByUser(pairs: [userId: number, amount: number][]): Map<number, number> {
  const totals = new Map<number, number>();
  for (const [userId, amount] of pairs) totals.set(userId, (totals.get(userId) ?? 0) + amount);
  return totals;
}

function toBalance(userId: number, row: AccountRow | undefined): Balance {
  const balance = row?.balance ?? 0;
  const held = row?.held ?? 0;
  return { userId, balance, held, available: balance - held };
}

export function insufficientCredits(needed: number, available: number): DomainError {
  return new DomainError(
    'BILLING.INSUFFICIENT_CREDITS',
    `Insufficient credits: this needs ${needed} ${needed === 1 ? 'credit' : 'credits'} and you have ${available} available. Please purchase more credits.`,
  );
}

/**
 * The credit ledger. Every method runs inside the caller's transaction, so a movement, its
 * balance change and its CreditsChanged event commit together or not at all. Balances change
 * only through conditional updates the database can refuse, never by read-then-write.
 */
@Injectable()
export class CreditLedger {
  constructor(private readonly outbox: OutboxService) {}

  async balance(manager: EntityManager, userId: number): Promise<Balance> {
    const [row] = await queryRows<AccountRow>(
      manager,
      `SELECT balance, held FROM billing.accounts WHERE user_id = $1`,
      [userId],
    );
    return toBalance(userId, row);
  }

  /** Opens an empty account; a no-op when it exists. */
  async open(manager: EntityManager, userId: number): Promise<void> {
    await manager.query(`INSERT INTO billing.accounts (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING`, [
      userId,
    ]);
  }

  async isClosed(manager: EntityManager, userId: number): Promise<boolean> {
    const [row] = await queryRows<{ closed: boolean }>(
      manager,
      `SELECT closed_at IS NOT NULL AS closed FROM billing.accounts WHERE user_id = $1`,
      [userId],
    );
    return row?.closed ?? false;
  }

  /**
   * Closes the account of a deleted user: no hold is made on it from now on, and every open hold
   * is released (each once: a release is conditional). Its entries stay. Idempotent; an account
   * not yet opened is created closed, so a late UserRegistered gives it nothing.
   */
  async close(manager: EntityManager, userId: number): Promise<{ released: number }> {
    await manager.query(
      `INSERT INTO billing.accounts (user_id, closed_at) VALUES ($1, now())
       ON CONFLICT (user_id) DO UPDATE SET closed_at = coalesce(accounts.closed_at, now()), updated_at = now()`,
      [userId],
    );
    const open = await queryRows<{ reference: string }>(
      manager,
      `SELECT reference FROM billing.holds WHERE user_id = $1 AND status = 'held' ORDER BY created_at`,
      [userId],
    );
    let released = 0;
    for (const { reference } of open) if ((await this.release(manager, reference)) === 'released') released += 1;
    return { released };
  }

  /**
   * Moves credits between the user and a system account, at most once per key. A debit larger
   * than the available balance is refused. Returns whether this call made the movement.
   */
  async post(manager: EntityManager, movement: Movement): Promise<{ applied: boolean; balance: Balance }> {
    const { userId, amount, reason, key, counterAccount } = movement;
    if (!Number.isInteger(amount) || amount === 0)
      throw new Error(`A movement needs a non-zero whole amount, got ${amount}`);
    const inserted = await queryRows<{ account: string }>(
      manager,
      `INSERT INTO billing.ledger_entries (account, amount, reason, idempotency_key)
       VALUES ($1, $2, $3, $4), ($5, $6, $3, $4)
       ON CONFLICT (idempotency_key, account) DO NOTHING
       RETURNING account`,
      [userAccount(userId), amount, reason, key, counterAccount, -amount],
    );
    if (inserted.length === 0) return { applied: false, balance: await this.balance(manager, userId) };
    if (inserted.length !== 2) throw new Error(`Ledger movement ${key} was half-written`);

    const [row] = await queryRows<AccountRow & { balance_changed_at: Date }>(
      manager,
      `UPDATE billing.accounts AS account SET balance = balance + $3, updated_at = now(), ${BALANCE_CHANGED_NOW}
       WHERE user_id = $2 AND balance - held + $3 >= 0
       RETURNING balance, held, balance_changed_at`,
      [new Date(), userId, amount],
    );
    if (!row) {
      const current = await this.balance(manager, userId);
      throw insufficientCredits(-amount, current.available);
    }
    const balance = toBalance(userId, row);
    await this.outbox.add(
      manager,
      BillingEvents.CreditsChanged,
      { userId, delta: amount, balance: balance.balance, available: balance.available, reason },
      { occurredAt: row.balance_changed_at },
    );
    return { applied: true, balance };
  }

  /**
   * Holds credits for jobs, many at once (group commit). The accounts involved are locked once,
   * in user order; each request is decided in the order given against what is still available.
   * The same reference holds once: asking again answers with the hold that exists. A request
   * the available balance cannot cover gets BILLING.INSUFFICIENT_CREDITS, the others go ahead.
   */
  async reserveMany(
    manager: EntityManager,
    requests: readonly HoldRequest[],
  ): Promise<(ReserveResult | DomainError)[]> {
    const references = [...new Set(requests.map((request) => request.reference))];
    const existing = new Map(
      (
        await queryRows<{ reference: string; user_id: number; amount: number; status: HoldStatus }>(
          manager,
          `SELECT reference, user_id, amount, status FROM billing.holds WHERE reference = ANY($1::text[])`,
          [references],
        )
      ).map((hold) => [hold.reference, hold]),
    );
    const userIds = [...new Set(requests.map((request) => request.userId))].sort((a, b) => a - b);
    const available = new Map(
      (
        await queryRows<{ user_id: number; balance: number; held: number; closed: boolean }>(
          manager,
          `SELECT user_id, balance, held, closed_at IS NOT NULL AS closed FROM billing.accounts
           WHERE user_id = ANY($1::int[]) ORDER BY user_id FOR UPDATE`,
          [userIds],
        )
      )
        // A closed account (its owner deleted it) has nothing to hold, whatever its balance.
        .map((row) => [row.user_id, row.closed ? 0 : row.balance - row.held]),
    );

    const accepted = new Map<string, HoldRequest>();
    // The same reference twice in one batch: the second answers like the first.
    const firstAnswer = new Map<string, ReserveResult | DomainError>();
    const answers = requests.map((request): ReserveResult | DomainError => {
      const repeated = firstAnswer.get(request.reference);
      if (repeated) return repeated;
      const answer = this.decide(request, existing.get(request.reference), available, accepted);
      firstAnswer.set(request.reference, answer);
      return answer;
    });

    if (accepted.size > 0) {
      const holds = [...accepted.values()];
      const inserted = await queryRows<{ reference: string }>(
        manager,
        `INSERT INTO billing.holds (user_id, reference, amount, expires_at)
         SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::timestamptz[])
         ON CONFLICT (reference) DO NOTHING RETURNING reference`,
        [
          holds.map((hold) => hold.userId),
          holds.map((hold) => hold.reference),
          holds.map((hold) => hold.amount),
          holds.map((hold) => hold.expiresAt),
        ],
      );
      // Another replica created one of these references meanwhile: it holds nothing twice.
      if (inserted.length !== holds.length) throw new HoldRaceError();
      const totals = sumByUser(holds.map((hold) => [hold.userId, hold.amount]));
      await manager.query(
        `UPDATE billing.accounts AS account SET held = account.held + total.amount, updated_at = now()
         FROM unnest($1::int[], $2::int[]) AS total(user_id, amount) WHERE account.user_id = total.user_id`,
        [[...totals.keys()], [...totals.values()]],
      );
    }

    // Everyone learns what their account has available after the whole batch (the rows are locked).
    return answers.map((answer) =>
      answer instanceof DomainError ? answer : { ...answer, available: available.get(answer.userId) ?? 0 },
    );
  }

  /** One request of a reserve batch, against what its account still has available. */
  private decide(
    request: HoldRequest,
    existing: { user_id: number; amount: number; status: HoldStatus } | undefined,
    available: Map<number, number>,
    accepted: Map<string, HoldRequest>,
  ): ReserveResult | DomainError {
    if (existing) {
      return existing.user_id === request.userId
        ? { userId: request.userId, status: existing.status, amount: existing.amount, available: 0 }
        : new DomainError('BILLING.HOLD_NOT_FOUND', 'That hold belongs to someone else.');
    }
    const left = available.get(request.userId) ?? 0;
    if (request.amount > left) return insufficientCredits(request.amount, left);
    available.set(request.userId, left - request.amount);
    accepted.set(request.reference, request);
    return { userId: request.userId, status: 'held', amount: request.amount, available: 0 };
  }

  /**
   * Charges held amounts, many at once, each once. A released hold cannot be captured; a
   * captured one answers 'captured' again. One CreditsChanged per account of the batch.
   */
  async captureMany(manager: EntityManager, references: readonly string[]): Promise<(HoldStatus | DomainError)[]> {
    const unique = [...new Set(references)];
    const captured = await queryRows<{ reference: string; user_id: number; amount: number }>(
      manager,
      `UPDATE billing.holds SET status = 'captured', resolved_at = now()
       WHERE reference = ANY($1::text[]) AND status = 'held' RETURNING reference, user_id, amount`,
      [unique],
    );
    if (captured.length > 0) {
      const inserted = await queryRows<{ account: string }>(
        manager,
        `INSERT INTO billing.ledger_entries (account, amount, reason, idempotency_key)
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[])
         ON CONFLICT (idempotency_key, account) DO NOTHING RETURNING account`,
        [
          captured.flatMap((hold) => [userAccount(hold.user_id), 'system:usage']),
          captured.flatMap((hold) => [-hold.amount, hold.amount]),
          captured.flatMap(() => ['usage', 'usage']),
          captured.flatMap((hold) => [`capture:${hold.reference}`, `capture:${hold.reference}`]),
        ],
      );
      if (inserted.length !== captured.length * 2)
        throw new Error('A capture found its ledger entries already written');
      const totals = sumByUser(captured.map((hold) => [hold.user_id, hold.amount]));
      const accounts = await queryRows<{ user_id: number; balance: number; held: number; balance_changed_at: Date }>(
        manager,
        `UPDATE billing.accounts AS account
         SET balance = account.balance - total.amount, held = account.held - total.amount, updated_at = now(),
           ${BALANCE_CHANGED_NOW}
         FROM unnest($2::int[], $3::int[]) AS total(user_id, amount) WHERE account.user_id = total.user_id
         RETURNING account.user_id, account.balance, account.held, account.balance_changed_at`,
        [new Date(), [...totals.keys()], [...totals.values()]],
      );
      // Most accounts change at the same moment: one insert per distinct time.
      const byTime = new Map<number, typeof accounts>();
      for (const account of accounts) {
        const time = account.balance_changed_at.getTime();
        byTime.set(time, [...(byTime.get(time) ?? []), account]);
      }
      for (const [time, changed] of byTime) {
        await this.outbox.addMany(
          manager,
          BillingEvents.CreditsChanged,
          changed.map((account) => ({
            userId: account.user_id,
            delta: -(totals.get(account.user_id) ?? 0),
            balance: account.balance,
            available: account.balance - account.held,
            reason: 'usage',
          })),
          { occurredAt: new Date(time) },
        );
      }
    }
    const capturedNow = new Set(captured.map((hold) => hold.reference));
    const others = unique.filter((reference) => !capturedNow.has(reference));
    const statuses = new Map(
      others.length === 0
        ? []
        : (
            await queryRows<{ reference: string; status: HoldStatus }>(
              manager,
              `SELECT reference, status FROM billing.holds WHERE reference = ANY($1::text[])`,
              [others],
            )
          ).map((hold) => [hold.reference, hold.status]),
    );
    return references.map((reference) => {
      if (capturedNow.has(reference)) return 'captured';
      const status = statuses.get(reference);
      if (!status) return new DomainError('BILLING.HOLD_NOT_FOUND', `There is no hold for ${reference}.`);
      if (status === 'released') {
        return new DomainError(
          'BILLING.HOLD_RELEASED',
          `The hold for ${reference} was already released and cannot be charged.`,
        );
      }
      return status;
    });
  }

  /** Gives held credits back, once (a CreditsChanged with delta 0 tells the new available). A captured hold stays captured. */
  async release(manager: EntityManager, reference: string): Promise<HoldStatus> {
    const [hold] = await queryRows<{ user_id: number; amount: number }>(
      manager,
      `UPDATE billing.holds SET status = 'released', resolved_at = now()
       WHERE reference = $1 AND status = 'held' RETURNING user_id, amount`,
      [reference],
    );
    if (!hold) return this.resolvedStatus(manager, reference);
    const [account] = await queryRows<AccountRow & { balance_changed_at: Date }>(
      manager,
      `UPDATE billing.accounts AS account SET held = held - $3, updated_at = now(), ${BALANCE_CHANGED_NOW}
       WHERE user_id = $2 RETURNING balance, held, balance_changed_at`,
      [new Date(), hold.user_id, hold.amount],
    );
    // The balance stays, what is available grows: told like any change, or reporting would keep
    // the available of the account's last change while the hold was still there.
    if (account) {
      await this.outbox.add(
        manager,
        BillingEvents.CreditsChanged,
        {
          userId: hold.user_id,
          delta: 0,
          balance: account.balance,
          available: account.balance - account.held,
          reason: 'release',
        },
        { occurredAt: account.balance_changed_at },
      );
    }
    return 'released';
  }

  /** What a hold that is no longer held says to a second release. */
  private async resolvedStatus(manager: EntityManager, reference: string): Promise<HoldStatus> {
    const [existing] = await queryRows<{ status: HoldStatus }>(
      manager,
      `SELECT status FROM billing.holds WHERE reference = $1`,
      [reference],
    );
    if (!existing) throw new DomainError('BILLING.HOLD_NOT_FOUND', `There is no hold for ${reference}.`);
    return existing.status;
  }
}
