import {
  AuthEvents,
  AuthJobs,
  BillingEvents,
  type EventEnvelope,
  type EventPayload,
  TrainingEvents,
} from '@likeness/contracts';
import { APP_CONFIG, type EventContext, EventHandler, OutboxService } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuthConfig } from '../auth.config.js';

/**
 * The events a user hears about by mail. Each queues one mail job in the inbox's transaction, so
 * a notice is queued once however often its event is delivered; the job then retries the sending
 * through a mail outage. Auth sends them because it knows the addresses.
 */
@Injectable()
export class AccountEventsListener {
  private readonly logger = new Logger(AccountEventsListener.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AuthConfig,
    private readonly outbox: OutboxService,
  ) {}

  @EventHandler(AuthEvents.UserRegistered)
  onUserRegistered(event: EventPayload<typeof AuthEvents.UserRegistered>, context: EventContext) {
    return this.queue({ kind: 'welcome', userId: event.userId }, context);
  }

  @EventHandler(TrainingEvents.TrainingCompleted)
  onTrainingCompleted(event: EventPayload<typeof TrainingEvents.TrainingCompleted>, context: EventContext) {
    return this.queue(
      { kind: 'model-ready', userId: event.userId, modelId: event.modelId, modelName: event.modelName },
      context,
    );
  }

  @EventHandler(TrainingEvents.TrainingFailed)
  onTrainingFailed(event: EventPayload<typeof TrainingEvents.TrainingFailed>, context: EventContext) {
    return this.queue(
      { kind: 'training-failed', userId: event.userId, modelId: event.modelId, reason: event.reason },
      context,
    );
  }

  @EventHandler(BillingEvents.PaymentSucceeded)
  onPaymentSucceeded(event: EventPayload<typeof BillingEvents.PaymentSucceeded>, context: EventContext) {
    return this.queue(
      {
        kind: 'receipt',
        userId: event.userId,
        paymentId: event.paymentId,
        packageId: event.packageId,
        credits: event.credits,
        amountCents: event.amountCents,
        paidAt: context.envelope.occurredAt,
      },
      context,
    );
  }

  private async queue(mail: AuthJobs.AccountMail, { envelope, manager }: EventContext): Promise<void> {
    if (this.isStale(envelope)) {
      this.logger.log(`No ${mail.kind} mail for event ${envelope.id}: it is older than MAIL_MAX_EVENT_AGE_HOURS`);
      return;
    }
    await this.outbox.enqueue(manager, AuthJobs.sendAccountMail, mail);
  }

  /** A consumer new to a stream that keeps a month of events must not mail about all of them. */
  private isStale(envelope: EventEnvelope): boolean {
    return Date.now() - Date.parse(envelope.occurredAt) > this.config.MAIL_MAX_EVENT_AGE_HOURS * 3_600_000;
  }
}
