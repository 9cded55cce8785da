import { AuthEvents, type EventPayload } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { UserErasure } from './user-erasure.service.js';

/** Media's part of an account deletion: the user's selfies and avatars, rows now and objects soon. */
@Injectable()
export class UserDeletedListener {
  constructor(private readonly erasure: UserErasure) {}

  @EventHandler(AuthEvents.UserDeleted)
  onUserDeleted(event: EventPayload<typeof AuthEvents.UserDeleted>, { manager }: EventContext): Promise<void> {
    return this.erasure.eraseRows(manager, event.userId);
  }
}
