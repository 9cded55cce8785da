import { type EventPayload, TrainingEvents } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import { CreditLedger } from './credit-ledger.js';
import { captureHold, releaseHold } from './hold-settlement.js';

/**
 * The billing end of the training saga: a completed training is charged its hold, a failed one
 * (cancelled, timed out, never started) gets it back.
 */
@Injectable()
export class TrainingListener {
  private readonly logger = new Logger(TrainingListener.name);

  constructor(private readonly ledger: CreditLedger) {}

  @EventHandler(TrainingEvents.TrainingCompleted)
  onTrainingCompleted(event: EventPayload<typeof TrainingEvents.TrainingCompleted>, { manager }: EventContext) {
    return captureHold(
      this.ledger,
      manager,
      event.holdReference,
      this.logger,
      `Model ${event.modelId} of user ${event.userId}`,
    );
  }

  @EventHandler(TrainingEvents.TrainingFailed)
  onTrainingFailed(event: EventPayload<typeof TrainingEvents.TrainingFailed>, { manager }: EventContext) {
    return releaseHold(this.ledger, manager, event.holdReference);
  }
}
