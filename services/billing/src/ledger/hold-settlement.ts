import { DomainError } from '@likeness/nest-kit';
import type { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CreditLedger } from './credit-ledger.js';

/**
 * How a saga's end settles its hold (training, generation): charged when the work completed,
 * given back when it failed. Both run in the event handler's inbox transaction, so each happens
 * once however often the event comes; the ledger makes a second capture or release a no-op too.
 */
export async function captureHold(
  ledger: CreditLedger,
  manager: EntityManager,
  reference: string,
  logger: Logger,
  what: string,
): Promise<void> {
  const [outcome] = await ledger.captureMany(manager, [reference]);
  // Redelivering cannot change these: say so loudly and let the event go.
  if (outcome instanceof DomainError) {
    logger.error(`${what} completed, but its hold ${reference} could not be charged: ${outcome.message}`);
  }
}

export async function releaseHold(ledger: CreditLedger, manager: EntityManager, reference: string): Promise<void> {
  try {
    await ledger.release(manager, reference);
  } catch (error) {
    // Work that failed before its hold was made has nothing to give back.
    if (!(error instanceof DomainError && error.code === 'BILLING.HOLD_NOT_FOUND')) throw error;
  }
}
