import { BillingRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler, snapshotPage } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

interface AccountRow {
  user_id: number;
  balance: number;
  held: number;
  balance_changed_at: Date;
}

interface PaymentRow {
  id: string;
  user_id: number;
  package_id: string;
  amount_cents: number;
  credits: number;
  status: 'succeeded' | 'refunded' | 'disputed';
  refunded_cents: number;
  succeeded_at: Date;
}

/** Balances and granted payments, for reporting's rebuild. */
@Controller()
export class SnapshotController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @RpcHandler(BillingRpc.snapshotAccounts)
  accounts(request: RpcRequest<typeof BillingRpc.snapshotAccounts>) {
    return snapshotPage(
      this.dataSource.manager,
      request,
      `SELECT user_id, balance, held, balance_changed_at FROM billing.accounts
       WHERE closed_at IS NULL AND ($1::integer IS NULL OR user_id > $1) ORDER BY user_id LIMIT $2`,
      (row: AccountRow) => ({
        userId: row.user_id,
        balance: row.balance,
        available: row.balance - row.held,
        balanceChangedAt: row.balance_changed_at.toISOString(),
      }),
      (item) => item.userId,
    );
  }

  @RpcHandler(BillingRpc.snapshotPayments)
  payments(request: RpcRequest<typeof BillingRpc.snapshotPayments>) {
    return snapshotPage(
      this.dataSource.manager,
      request,
      `SELECT id, user_id, package_id, amount_cents, credits, status, refunded_cents, succeeded_at FROM billing.payments
       WHERE status IN ('succeeded', 'refunded', 'disputed') AND ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      (row: PaymentRow) => ({
        paymentId: row.id,
        userId: row.user_id,
        packageId: row.package_id,
        amountCents: row.amount_cents,
        credits: row.credits,
        status: row.status,
        refundedCents: row.refunded_cents,
        succeededAt: row.succeeded_at.toISOString(),
      }),
      (item) => item.paymentId,
    );
  }
}
