import { AuthEvents, type EventPayload } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { DeletedUser } from './deleted-user.entity.js';
import { ReportedUser } from './reported-user.entity.js';

@Injectable()
export class UserRegisteredListener {
  @EventHandler(AuthEvents.UserRegistered)
  async onUserRegistered(
    event: EventPayload<typeof AuthEvents.UserRegistered>,
    { manager }: EventContext,
  ): Promise<void> {
    // Deleted before its registration was heard of: it stays out.
    if (await manager.exists(DeletedUser, { where: { userId: event.userId } })) return;
    await manager.upsert(
      ReportedUser,
      {
        id: event.userId,
        username: event.username,
        email: event.email,
        role: event.role,
        registeredAt: new Date(event.registeredAt),
      },
      ['id'],
    );
  }
}
