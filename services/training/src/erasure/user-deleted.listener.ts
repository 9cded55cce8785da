import { AuthEvents, type EventPayload } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { ModelErasure } from './model-erasure.service.js';

/** Training's part of an account deletion: the user's models, here now and at the provider soon. */
@Injectable()
export class UserDeletedListener {
  constructor(private readonly erasure: ModelErasure) {}

  @EventHandler(AuthEvents.UserDeleted)
  onUserDeleted(event: EventPayload<typeof AuthEvents.UserDeleted>, { manager }: EventContext): Promise<void> {
    return this.erasure.eraseRows(manager, event.userId);
  }
}
