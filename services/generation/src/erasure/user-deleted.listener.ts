import { AuthEvents, type EventPayload } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { JobErasure } from './job-erasure.service.js';

/** Generation's part of an account deletion: the user's jobs, queued, running or done. */
@Injectable()
export class UserDeletedListener {
  constructor(private readonly erasure: JobErasure) {}

  @EventHandler(AuthEvents.UserDeleted)
  onUserDeleted(event: EventPayload<typeof AuthEvents.UserDeleted>, { manager }: EventContext): Promise<void> {
    return this.erasure.eraseRows(manager, event.userId);
  }
}
