import { type EventPayload, TrainingEvents } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { SelfiesService } from '../selfies/selfies.service.js';

/**
 * Media's end of the training saga: once a training ended, either way, its selfies can be
 * deleted again and its zip goes. Exactly once through the inbox, and idempotent besides.
 */
@Injectable()
export class TrainingListener {
  constructor(private readonly selfies: SelfiesService) {}

  @EventHandler(TrainingEvents.TrainingCompleted)
  async onTrainingCompleted(
    event: EventPayload<typeof TrainingEvents.TrainingCompleted>,
    { manager }: EventContext,
  ): Promise<void> {
    await this.selfies.release(event.userId, event.modelId, manager);
  }

  @EventHandler(TrainingEvents.TrainingFailed)
  async onTrainingFailed(
    event: EventPayload<typeof TrainingEvents.TrainingFailed>,
    { manager }: EventContext,
  ): Promise<void> {
    await this.selfies.release(event.userId, event.modelId, manager);
  }
}
