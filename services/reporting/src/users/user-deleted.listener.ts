import { AuthEvents, type EventPayload } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { DeletedUser } from './deleted-user.entity.js';
import { ReportedUser } from './reported-user.entity.js';

/** A deleted user leaves the admin views: their row goes, their id stays as a tombstone. */
@Injectable()
export class UserDeletedListener {
  @EventHandler(AuthEvents.UserDeleted)
  async onUserDeleted(event: EventPayload<typeof AuthEvents.UserDeleted>, { manager }: EventContext): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(DeletedUser)
      .values({ userId: event.userId, deletedAt: new Date(event.deletedAt) })
      .orIgnore()
      .execute();
    await manager.delete(ReportedUser, { id: event.userId });
  }
}
