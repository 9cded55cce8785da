import { AuthEvents, BillingEvents, type EventPayload, GenerationEvents, TrainingEvents } from '@likeness/contracts';
import { type EventContext, EventHandler } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { eraseUser } from './erasure.js';
import { applyBalance, applyJob, applyPayment, applyTraining, applyUser } from './projections.js';
import { ReadModelBatch, iso } from './read-model-batch.js';

const READ_MODELS = 'reporting:read-models';
/** Every handler applies the events already delivered in one transaction (at most this many). */
const BATCH = { batch: { max: 200 } };

/**
 * Applies one event's changes in its inbox transaction. The events of one transaction share one
 * batch, whose counters move once, right before the commit (the counters' rows are every
 * transaction's last lock: held only while it commits).
 */
async function applyEvent(context: EventContext, work: (batch: ReadModelBatch) => Promise<void> | void): Promise<void> {
  const batch = context.shared(READ_MODELS, () => new ReadModelBatch(context.manager));
  context.beforeCommit(READ_MODELS, () => batch.flush());
  await work(batch);
  batch.seen(context.envelope);
}

/**
 * The admin read models, from events only, each applied once through the inbox. Events of
 * different subjects come in any order: every handler merges its fact into the row
 * (src/read-models/projections.ts), so the order does not change the outcome. A row's times are
 * its events' `occurredAt`, which each producer writes, as the very same Date, on its own row (a
 * job's created_at and completed_at, a model's started_at and finished_at, a payment's
 * succeeded_at, an account's balance_changed_at): the rebuild reads those from the snapshots, and
 * gets the same rows.
 */
@Injectable()
export class ReadModelListeners {
  @EventHandler(AuthEvents.UserRegistered, BATCH)
  async onUserRegistered(event: EventPayload<typeof AuthEvents.UserRegistered>, context: EventContext) {
    await applyEvent(context, (batch) =>
      applyUser(batch, {
        id: event.userId,
        username: event.username,
        email: event.email,
        role: event.role,
        registered_at: event.registeredAt,
      }),
    );
  }

  @EventHandler(AuthEvents.UserDeleted, BATCH)
  async onUserDeleted(event: EventPayload<typeof AuthEvents.UserDeleted>, context: EventContext) {
    await applyEvent(context, (batch) => eraseUser(batch, event.userId, event.deletedAt));
  }

  @EventHandler(BillingEvents.CreditsChanged, BATCH)
  async onCreditsChanged(event: EventPayload<typeof BillingEvents.CreditsChanged>, context: EventContext) {
    await applyEvent(context, (batch) =>
      applyBalance(
        batch,
        {
          user_id: event.userId,
          balance: event.balance,
          available: event.available,
          changed_at: context.envelope.occurredAt,
        },
        'event',
      ),
    );
  }

  @EventHandler(BillingEvents.PaymentSucceeded, BATCH)
  async onPaymentSucceeded(event: EventPayload<typeof BillingEvents.PaymentSucceeded>, context: EventContext) {
    await applyEvent(context, (batch) =>
      applyPayment(batch, {
        id: event.paymentId,
        user_id: event.userId,
        package_id: event.packageId,
        amount_cents: event.amountCents,
        credits: event.credits,
        status: 'succeeded',
        refunded_cents: 0,
        created_at: context.envelope.occurredAt,
      }),
    );
  }

  @EventHandler(BillingEvents.PaymentRefunded, BATCH)
  async onPaymentRefunded(event: EventPayload<typeof BillingEvents.PaymentRefunded>, context: EventContext) {
    await applyEvent(context, (batch) =>
      applyPayment(batch, {
        id: event.paymentId,
        user_id: event.userId,
        package_id: event.packageId,
        amount_cents: event.paymentAmountCents,
        credits: event.credits,
        status: event.status,
        refunded_cents: event.amountCents,
        // The refund's time (billing's refunded_at), later than the grant's: heard before the
        // PaymentSucceeded, it stands in until that one's time (billing's succeeded_at) replaces it.
        created_at: context.envelope.occurredAt,
      }),
    );
  }

  @EventHandler(TrainingEvents.TrainingStarted, BATCH)
  async onTrainingStarted(event: EventPayload<typeof TrainingEvents.TrainingStarted>, context: EventContext) {
    await applyEvent(context, (batch) =>
      applyTraining(batch, {
        model_id: event.modelId,
        user_id: event.userId,
        model_name: null,
        status: 'training',
        failure_reason: null,
        started_at: iso(context.envelope.occurredAt),
        finished_at: null,
      }),
    );
  }

  @EventHandler(TrainingEvents.TrainingCompleted, BATCH)
  async onTrainingCompleted(event: EventPayload<typeof TrainingEvents.TrainingCompleted>, context: EventContext) {
    await applyEvent(context, (batch) =>
      applyTraining(batch, {
        model_id: event.modelId,
        user_id: event.userId,
        model_name: event.modelName,
        status: 'completed',
        failure_reason: null,
        started_at: null,
        finished_at: iso(context.envelope.occurredAt),
      }),
    );
  }

  @EventHandler(TrainingEvents.TrainingFailed, BATCH)
  async onTrainingFailed(event: EventPayload<typeof TrainingEvents.TrainingFailed>, context: EventContext) {
    await applyEvent(context, (batch) =>
      applyTraining(batch, {
        model_id: event.modelId,
        user_id: event.userId,
        model_name: null,
        status: 'failed',
        failure_reason: event.reason,
        started_at: null,
        finished_at: iso(context.envelope.occurredAt),
      }),
    );
  }

  @EventHandler(GenerationEvents.GenerationRequested, BATCH)
  async onGenerationRequested(event: EventPayload<typeof GenerationEvents.GenerationRequested>, context: EventContext) {
    await applyEvent(context, (batch) =>
      applyJob(batch, {
        id: event.jobId,
        user_id: event.userId,
        prompt_text: event.promptText,
        num_outputs: event.numOutputs,
        status: 'pending',
        failure_reason: null,
        created_at: iso(context.envelope.occurredAt),
        finished_at: null,
      }),
    );
  }

  @EventHandler(GenerationEvents.GenerationCompleted, BATCH)
  async onGenerationCompleted(event: EventPayload<typeof GenerationEvents.GenerationCompleted>, context: EventContext) {
    await applyEvent(context, (batch) =>
      applyJob(batch, {
        id: event.jobId,
        user_id: event.userId,
        prompt_text: event.promptText,
        num_outputs: null,
        status: 'completed',
        failure_reason: null,
        created_at: null,
        finished_at: iso(context.envelope.occurredAt),
      }),
    );
  }

  @EventHandler(GenerationEvents.GenerationFailed, BATCH)
  async onGenerationFailed(event: EventPayload<typeof GenerationEvents.GenerationFailed>, context: EventContext) {
    await applyEvent(context, (batch) =>
      applyJob(batch, {
        id: event.jobId,
        user_id: event.userId,
        prompt_text: null,
        num_outputs: null,
        status: 'failed',
        failure_reason: event.reason,
        created_at: null,
        finished_at: iso(context.envelope.occurredAt),
      }),
    );
  }
}
