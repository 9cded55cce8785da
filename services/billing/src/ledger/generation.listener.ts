import { type EventPayload, GenerationEvents } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import { CreditLedger } from './credit-ledger.js';
import { captureHold, releaseHold } from './hold-settlement.js';

/** The billing end of the generation saga: a completed run is charged its 5 credits, a failed one costs nothing. */
@Injectable()
export class GenerationListener {
  private readonly logger = new Logger(GenerationListener.name);

  constructor(private readonly ledger: CreditLedger) {}

  @EventHandler(GenerationEvents.GenerationCompleted)
  onGenerationCompleted(event: EventPayload<typeof GenerationEvents.GenerationCompleted>, { manager }: EventContext) {
    return captureHold(
      this.ledger,
      manager,
      event.holdReference,
      this.logger,
      `Generation ${event.jobId} of user ${event.userId}`,
    );
  }

  @EventHandler(GenerationEvents.GenerationFailed)
  onGenerationFailed(event: EventPayload<typeof GenerationEvents.GenerationFailed>, { manager }: EventContext) {
    return releaseHold(this.ledger, manager, event.holdReference);
  }
}
