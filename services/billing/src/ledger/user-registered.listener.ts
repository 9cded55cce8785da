import { AuthEvents, type EventPayload } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { AccountsService } from './accounts.service.js';

/** Every new user gets an account with the welcome credits, exactly once. */
@Injectable()
export class UserRegisteredListener {
  constructor(private readonly accounts: AccountsService) {}

  @EventHandler(AuthEvents.UserRegistered)
  async onUserRegistered(
    event: EventPayload<typeof AuthEvents.UserRegistered>,
    { manager }: EventContext,
  ): Promise<void> {
    await this.accounts.openIn(manager, event.userId);
  }
}
