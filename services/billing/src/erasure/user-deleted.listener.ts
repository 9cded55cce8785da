import { AuthEvents, type EventPayload } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import { CreditLedger } from '../ledger/credit-ledger.js';

/**
 * Billing's part of an account deletion: the account is closed and its open holds released (the
 * jobs they paid for are cancelled, and cost nothing). Its ledger entries and payments stay for
 * accounting: billing never stored a name or an e-mail address, and the account id they keep names
 * nobody once auth has erased the user (docs/data-retention.md).
 */
@Injectable()
export class UserDeletedListener {
  private readonly logger = new Logger(UserDeletedListener.name);

  constructor(private readonly ledger: CreditLedger) {}

  @EventHandler(AuthEvents.UserDeleted)
  async onUserDeleted(event: EventPayload<typeof AuthEvents.UserDeleted>, { manager }: EventContext): Promise<void> {
    const { released } = await this.ledger.close(manager, event.userId);
    this.logger.log(`Closed the account of deleted user ${event.userId}; released ${released} open hold(s)`);
  }
}
