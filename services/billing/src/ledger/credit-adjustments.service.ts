import {
  ADJUSTMENT_TOO_LARGE_MESSAGE,
  type AdminRpc,
  type CreditAdjustmentResponse,
  type RpcRequest,
} from '@likeness/contracts';
import { DomainError, queryRows } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CreditLedger } from './credit-ledger.js';

type AdjustmentRequest = RpcRequest<typeof AdminRpc.adjustCredits>;

interface AdjustmentRow {
  user_id: number;
  delta: number;
  reason: string;
  balance: number;
  available: number;
}

const NO_ACCOUNT = 'There is no such user, or their account was closed.';

/**
 * An administrator's grant or deduction of credits: a ledger `adjustment` against
 * `system:adjustments`, recorded with its reason and the administrator, once per request id.
 */
@Injectable()
export class CreditAdjustmentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ledger: CreditLedger,
  ) {}

  /**
   * Applies the adjustment once. The same request id again (a retry, or the same request sent
   * twice at once) answers with what the first did and moves nothing: the request id is the
   * adjustments' primary key, so the second insert waits for the first transaction and then
   * finds its row. A deduction past what the user can spend is refused, as is an account that
   * does not exist or was closed.
   */
  adjust(request: AdjustmentRequest, adminId: number): Promise<CreditAdjustmentResponse> {
    return this.dataSource.transaction(async (manager) => {
      // The account is locked for the whole adjustment, so what it can spend cannot change meanwhile.
      const [account] = await queryRows<{ balance: number; held: number; closed: boolean }>(
        manager,
        `SELECT balance, held, closed_at IS NOT NULL AS closed FROM billing.accounts WHERE user_id = $1 FOR UPDATE`,
        [request.userId],
      );
      if (!account || account.closed) throw new DomainError('COMMON.NOT_FOUND', NO_ACCOUNT);

      const after = {
        balance: account.balance + request.delta,
        available: account.balance - account.held + request.delta,
      };
      const recorded = await queryRows<{ request_id: string }>(
        manager,
        `INSERT INTO billing.credit_adjustments (request_id, user_id, delta, reason, admin_id, balance, available)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
        [request.requestId, request.userId, request.delta, request.reason, adminId, after.balance, after.available],
      );
      if (recorded.length === 0) return this.replay(manager, request);

      if (after.available < 0) throw new DomainError('BILLING.INSUFFICIENT_CREDITS', ADJUSTMENT_TOO_LARGE_MESSAGE);
      const { balance } = await this.ledger.post(manager, {
        userId: request.userId,
        amount: request.delta,
        reason: 'adjustment',
        key: `adjustment:${request.requestId}`,
        counterAccount: 'system:adjustments',
      });
      return { userId: request.userId, delta: request.delta, balance: balance.balance, available: balance.available };
    });
  }

  /** What the first request with this id did; a different request under the same id is refused. */
  private async replay(manager: EntityManager, request: AdjustmentRequest): Promise<CreditAdjustmentResponse> {
    const [first] = await queryRows<AdjustmentRow>(
      manager,
      `SELECT user_id, delta, reason, balance, available FROM billing.credit_adjustments WHERE request_id = $1`,
      [request.requestId],
    );
    if (!first) throw new Error(`The adjustment ${request.requestId} conflicted but cannot be read`);
    if (first.user_id !== request.userId || first.delta !== request.delta || first.reason !== request.reason) {
      const message = 'That requestId was already used for a different adjustment. Send a new requestId.';
      throw new DomainError('COMMON.VALIDATION_FAILED', message, [{ path: 'requestId', message }]);
    }
    return { userId: first.user_id, delta: first.delta, balance: first.balance, available: first.available };
  }
}
