import {
  GENERATION_PRIORITY,
  BillingEvents,
  type ConfirmPaymentResponse,
  type CreatePaymentIntentResponse,
  type PaymentConfig,
} from '@likeness/contracts';
import { DomainError, OutboxService, queryRows } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan, Not } from 'typeorm';
import { CreditLedger } from '../ledger/credit-ledger.js';
import type { CreditPackageRow } from '../packages/credit-package.entity.js';
import { PackagesService, toCreditPackage } from '../packages/packages.service.js';
import { Payment } from './payment.entity.js';
import {
  PAYMENT_PROVIDER,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderIntent,
} from './providers/payment-provider.js';
import { isLocalPaymentProvider } from './providers/create-payment-provider.js';

export const PAYMENT_NOT_FOUND = 'We could not find that payment.';

/**
 * Pending payments one person may have from the last hour. Buying again the same package gives
 * back its unpaid intent, so only payments in progress at the provider (a bank debit settling, a
 * card check waiting) or requests racing add up: five is more than a buyer needs, and bounds the
 * rows and provider intents a script can make.
 */
export const MAX_PENDING_PAYMENTS = 5;
const PENDING_WINDOW_MS = 3_600_000;
export const TOO_MANY_PENDING_PAYMENTS =
  `You have started ${MAX_PENDING_PAYMENTS} payments in the last hour that are not finished yet. ` +
  'Please complete one of them, or try again later.';

/**
 * Payments: a pending payment per purchase, granted once by whichever comes first of the
 * provider's webhook and the buyer's confirmation, both checking the provider's own record.
 */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger(PaymentsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly packages: PackagesService,
    private readonly ledger: CreditLedger,
    private readonly outbox: OutboxService,
  ) {}

  config(): PaymentConfig {
    return { provider: this.provider.kind, publishableKey: this.provider.publishableKey };
  }

  /**
   * The amount always comes from our package, never from the client. An unpaid intent of the
   * same package from the last hour is given back rather than a new one made (the provider lets
   * an intent be paid until it succeeds), and a person may have at most MAX_PENDING_PAYMENTS
   * payments pending from the last hour: each costs a row here and an intent at the provider.
   */
  async createIntent(userId: number, packageId: string): Promise<CreatePaymentIntentResponse> {
    const creditPackage = await this.packages.get(packageId);
    const reusable = await this.reusableIntent(userId, creditPackage);
    if (reusable) return this.intentResponse(reusable, creditPackage);
    const payment = await this.startPayment(userId, creditPackage);
    const payments = this.dataSource.getRepository(Payment);
    try {
      const intent = await this.provider.createIntent({
        paymentId: payment.id,
        userId,
        packageId: creditPackage.id,
        amountCents: creditPackage.priceCents,
        credits: creditPackage.credits,
      });
      await payments.update(payment.id, { providerPaymentId: intent.id });
      return this.intentResponse(intent, creditPackage);
    } catch (error) {
      // Nothing half-written: the attempt is recorded as failed, never left pending.
      await payments.update(payment.id, { status: 'failed', failureMessage: (error as Error).message.slice(0, 500) });
      throw error instanceof DomainError
        ? error
        : new DomainError(
            'BILLING.PROVIDER_UNAVAILABLE',
            'We could not start the payment. Please try again in a moment.',
          );
    }
  }

  private intentResponse(intent: ProviderIntent, creditPackage: CreditPackageRow): CreatePaymentIntentResponse {
    return {
      clientSecret: intent.clientSecret,
      paymentIntentId: intent.id,
      packageDetails: toCreditPackage(creditPackage),
      provider: this.provider.kind,
    };
  }

  /**
   * The person's latest pending intent of this package and price, if the provider still takes a
   * payment on it: nothing charged, nothing in progress (a declined attempt may be retried).
   */
  private async reusableIntent(userId: number, creditPackage: CreditPackageRow): Promise<ProviderIntent | undefined> {
    const candidate = await this.dataSource.getRepository(Payment).findOne({
      where: {
        userId,
        provider: this.provider.kind,
        packageId: creditPackage.id,
        amountCents: creditPackage.priceCents,
        credits: creditPackage.credits,
        status: 'pending',
        providerPaymentId: Not(IsNull()),
        createdAt: MoreThan(new Date(Date.now() - PENDING_WINDOW_MS)),
      },
      order: { createdAt: 'DESC' },
    });
    if (!candidate?.providerPaymentId) return undefined;
    const intent = await this.provider.retrieveIntent(candidate.providerPaymentId);
    const payable = intent?.status === 'requires_payment_method' || intent?.status === 'failed';
    return payable && intent.amountCents === creditPackage.priceCents ? intent : undefined;
  }

  /**
   * Records a new pending payment unless the person already has MAX_PENDING_PAYMENTS from the
   * last hour. A lock per person makes the count hold against requests racing from every replica.
   */
  private startPayment(userId: number, creditPackage: CreditPackageRow): Promise<Payment> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('billing.pending-payments'), $1)`, [userId]);
      const [counted] = await queryRows<{ pending: number }>(
        manager,
        `SELECT count(*)::int AS pending FROM billing.payments
         WHERE user_id = $1 AND status = 'pending' AND created_at > now() - make_interval(secs => $2)`,
        [userId, PENDING_WINDOW_MS / 1000],
      );
      if ((counted?.pending ?? 0) >= MAX_PENDING_PAYMENTS) {
        throw new DomainError('COMMON.RATE_LIMITED', TOO_MANY_PENDING_PAYMENTS);
      }
      return manager.save(
        manager.create(Payment, {
          userId,
          provider: this.provider.kind,
          packageId: creditPackage.id,
          amountCents: creditPackage.priceCents,
          credits: creditPackage.credits,
        }),
      );
    });
  }

  /** Asks the provider and grants the credits if it succeeded; returns what the payment added. */
  /** GENERATION_PRIORITY: a Professional Pack that succeeded within the window and is still paid for. */
  async hasGenerationPriority(userId: number): Promise<boolean> {
    const rows = await queryRows<unknown>(
      this.dataSource.manager,
      `SELECT 1 FROM billing.payments
       WHERE user_id = $1 AND package_id = $2 AND status = 'succeeded'
         AND succeeded_at > now() - make_interval(days => $3)
       LIMIT 1`,
      [userId, GENERATION_PRIORITY.packageId, GENERATION_PRIORITY.windowDays],
    );
    return rows.length > 0;
  }

  async confirm(userId: number, intentId: string): Promise<ConfirmPaymentResponse> {
    const payment = await this.ownedPayment(userId, intentId);
    if (payment.status !== 'pending' && payment.status !== 'failed') return { credits: payment.credits };
    const intent = await this.provider.retrieveIntent(intentId);
    if (!intent) throw new DomainError('BILLING.PAYMENT_NOT_FOUND', PAYMENT_NOT_FOUND);
    if (intent.status === 'succeeded') {
      await this.grant(intentId);
      return { credits: payment.credits };
    }
    if (intent.status === 'failed' || intent.status === 'canceled') {
      await this.markFailed(intentId, intent.failureMessage ?? 'The payment did not go through.');
      throw new DomainError('BILLING.PAYMENT_DECLINED', intent.failureMessage ?? 'Your payment did not go through.');
    }
    throw new DomainError(
      'BILLING.PAYMENT_PENDING',
      'Your payment is still being processed. Your credits will appear as soon as it completes.',
    );
  }

  /** The test-mode card form: exists only while the local processor is in use. */
  async confirmLocal(userId: number, intentId: string, cardNumber: string) {
    if (!isLocalPaymentProvider(this.provider)) {
      throw new DomainError(
        'COMMON.NOT_FOUND',
        'Test payments are off: this installation takes real payments through Stripe.',
      );
    }
    await this.ownedPayment(userId, intentId);
    try {
      await this.provider.confirm(intentId, cardNumber);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'BILLING.PAYMENT_DECLINED')
        await this.markFailed(intentId, error.message);
      throw error;
    }
    await this.grant(intentId);
    return { paymentIntentId: intentId, status: 'succeeded' as const };
  }

  async handleWebhook(payload: string, signature: string): Promise<void> {
    const event = this.provider.parseWebhook(payload, signature);
    switch (event.kind) {
      case 'payment_succeeded':
        await this.grant(event.intentId);
        return;
      case 'payment_failed':
        await this.markFailed(event.intentId, event.message);
        return;
      case 'refunded':
      case 'disputed':
        await this.reverse(event);
        return;
      case 'ignored':
        return;
    }
  }

  /** Grants a payment's credits, at most once however many callers race here. */
  async grant(intentId: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      // The row's succeeded_at and the PaymentSucceeded's time are the same moment.
      const succeededAt = new Date();
      const [payment] = await queryRows<{
        id: string;
        user_id: number;
        credits: number;
        amount_cents: number;
        package_id: string;
        provider: 'stripe' | 'local';
      }>(
        manager,
        `UPDATE billing.payments SET status = 'succeeded', failure_message = NULL, succeeded_at = $2, updated_at = $2
         WHERE provider_payment_id = $1 AND status IN ('pending', 'failed')
         RETURNING id, user_id, credits, amount_cents, package_id, provider`,
        [intentId, succeededAt],
      );
      if (!payment) return false;
      await this.ledger.open(manager, payment.user_id);
      await this.ledger.post(manager, {
        userId: payment.user_id,
        amount: payment.credits,
        reason: 'purchase',
        key: `payment:${intentId}`,
        counterAccount: 'system:sales',
      });
      await this.outbox.add(
        manager,
        BillingEvents.PaymentSucceeded,
        {
          paymentId: payment.id,
          userId: payment.user_id,
          provider: payment.provider,
          providerPaymentId: intentId,
          packageId: payment.package_id,
          amountCents: payment.amount_cents,
          credits: payment.credits,
        },
        { occurredAt: succeededAt },
      );
      return true;
    });
  }

  private async markFailed(intentId: string, message: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE billing.payments SET status = 'failed', failure_message = $2, updated_at = now()
       WHERE provider_payment_id = $1 AND status = 'pending'`,
      [intentId, message.slice(0, 500)],
    );
  }

  /**
   * A refund or dispute takes back the credits its share of the payment bought, never below
   * zero: what the balance cannot cover is recorded as unrecovered.
   */
  private async reverse(event: Extract<ProviderEvent, { kind: 'refunded' | 'disputed' }>): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const payment = await manager.getRepository(Payment).findOne({
        where: { providerPaymentId: event.intentId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!payment || payment.status === 'pending' || payment.status === 'failed') {
        this.logger.warn(`Ignoring ${event.kind} for ${event.intentId}: no granted payment`);
        return;
      }
      const share = Math.min(1, event.amountCents / payment.amountCents);
      const owedInTotal = Math.floor(payment.credits * share);
      const owed = owedInTotal - payment.creditsReversed - payment.creditsUnrecovered;
      const status = event.kind === 'disputed' ? 'disputed' : share >= 1 ? 'refunded' : payment.status;
      const refundedCents = Math.max(payment.refundedCents, Math.min(event.amountCents, payment.amountCents));
      let taken = 0;
      if (owed > 0) {
        const { available } = await this.ledger.balance(manager, payment.userId);
        taken = Math.min(owed, available);
        if (taken > 0) {
          await this.ledger.post(manager, {
            userId: payment.userId,
            amount: -taken,
            reason: event.kind === 'disputed' ? 'dispute' : 'refund',
            key: `${event.kind}:${event.intentId}:${owedInTotal}`,
            counterAccount: 'system:reversals',
          });
        }
        if (owed > taken) this.logger.warn(`${owed - taken} credits of payment ${payment.id} could not be recovered`);
      }
      const changed = status !== payment.status || refundedCents !== payment.refundedCents || owed > 0;
      if (!changed) return;
      const refundedAt = new Date();
      await manager.update(Payment, payment.id, {
        status,
        refundedCents,
        refundedAt,
        creditsReversed: payment.creditsReversed + taken,
        creditsUnrecovered: payment.creditsUnrecovered + Math.max(0, owed - taken),
      });
      // Reporting's revenue and payment list hear of it once, with the reversal.
      await this.outbox.add(
        manager,
        BillingEvents.PaymentRefunded,
        {
          paymentId: payment.id,
          userId: payment.userId,
          kind: event.kind === 'disputed' ? 'dispute' : 'refund',
          amountCents: refundedCents,
          status: status as 'succeeded' | 'refunded' | 'disputed',
          creditsTakenBack: payment.creditsReversed + taken,
          packageId: payment.packageId,
          paymentAmountCents: payment.amountCents,
          credits: payment.credits,
        },
        { occurredAt: refundedAt },
      );
    });
  }

  /** A payment of another user looks exactly like one that does not exist. */
  private async ownedPayment(userId: number, intentId: string): Promise<Payment> {
    const payment = await this.dataSource.getRepository(Payment).findOneBy({ providerPaymentId: intentId });
    if (!payment || payment.userId !== userId) throw new DomainError('BILLING.PAYMENT_NOT_FOUND', PAYMENT_NOT_FOUND);
    return payment;
  }
}
