import { type EventPayload, GenerationEvents } from '@likeness/contracts';
import { EventHandler } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { AvatarsService } from './avatars.service.js';

/**
 * A failed generation costs nothing and keeps nothing: outputs it stored before failing (some of
 * its images kept, then the next refused) leave the gallery, so a job never delivers for free.
 */
@Injectable()
export class GenerationListener {
  constructor(private readonly avatars: AvatarsService) {}

  @EventHandler(GenerationEvents.GenerationFailed)
  async onGenerationFailed(event: EventPayload<typeof GenerationEvents.GenerationFailed>): Promise<void> {
    await this.avatars.deleteOutputsOf(event.userId, event.jobId);
  }
}
