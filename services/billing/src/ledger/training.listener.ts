import { type EventPayload, TrainingEvents } from '@likeness/contracts';
import { DomainError, type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import { CreditLedger } from './credit-ledger.js';

/**
 * The billing end of the training saga: a completed training is charged its hold, a failed one
 * (cancelled, timed out, never started) gets it back. Both run in the inbox's transaction, so
 * each happens once however often the event comes; the ledger makes a second capture or release
 * of the same hold a no-op too.
 */
@Injectable()
export class TrainingListener {
  private readonly logger = new Logger(TrainingListener.name);

  constructor(private readonly ledger: CreditLedger) {}

  @EventHandler(TrainingEvents.TrainingCompleted)
  async onTrainingCompleted(
    event: EventPayload<typeof TrainingEvents.TrainingCompleted>,
    { manager }: EventContext,
  ): Promise<void> {
    const [outcome] = await this.ledger.captureMany(manager, [event.holdReference]);
    // Redelivering cannot change these: say so loudly and let the event go.
    if (outcome instanceof DomainError) {
      this.logger.error(
        `Model ${event.modelId} of user ${event.userId} completed, but its hold ${event.holdReference} could not be charged: ${outcome.message}`,
      );
    }
  }

  @EventHandler(TrainingEvents.TrainingFailed)
  async onTrainingFailed(
    event: EventPayload<typeof TrainingEvents.TrainingFailed>,
    { manager }: EventContext,
  ): Promise<void> {
    try {
      await this.ledger.release(manager, event.holdReference);
    } catch (error) {
      // A start that failed before its hold was made has nothing to give back.
      if (!(error instanceof DomainError && error.code === 'BILLING.HOLD_NOT_FOUND')) throw error;
    }
  }
}
