import { randomBytes } from 'node:crypto';
import { LOCAL_TEST_CARDS } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Not, type Repository } from 'typeorm';
import { LocalPaymentIntent } from './local-payment-intent.entity.js';
import type { CreateIntentInput, PaymentProvider, ProviderEvent, ProviderIntent } from './payment-provider.js';

const DECLINED_MESSAGE = 'Your card was declined.';
const TEST_CARDS_ONLY_MESSAGE =
  'Test mode accepts only the test cards: 4242 4242 4242 4242 succeeds and 4000 0000 0000 0002 is declined.';

/**
 * The local test processor: payments on one machine without a Stripe account. Intents live in
 * billing's own database; the SPA's test card form confirms them with one of LOCAL_TEST_CARDS.
 */
@Injectable()
export class LocalPaymentProvider implements PaymentProvider {
  readonly kind = 'local' as const;
  readonly publishableKey = null;
  private readonly intents: Repository<LocalPaymentIntent>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.intents = dataSource.getRepository(LocalPaymentIntent);
  }

  async createIntent(input: CreateIntentInput): Promise<ProviderIntent> {
    const id = `pi_local_${randomBytes(12).toString('hex')}`;
    // ON CONFLICT DO NOTHING: of two creates for one payment, the second finds the first's intent.
    await this.intents
      .createQueryBuilder()
      .insert()
      .values({
        id,
        clientSecret: `${id}_secret_${randomBytes(18).toString('base64url')}`,
        idempotencyKey: input.paymentId,
        amountCents: input.amountCents,
        currency: 'usd',
        status: 'requires_payment_method',
        metadata: {
          paymentId: input.paymentId,
          userId: String(input.userId),
          packageId: input.packageId,
          credits: String(input.credits),
        },
        failureMessage: null,
      })
      .orIgnore()
      .execute();
    return toProviderIntent(await this.intents.findOneByOrFail({ idempotencyKey: input.paymentId }));
  }

  async retrieveIntent(intentId: string): Promise<ProviderIntent | null> {
    const intent = await this.intents.findOneBy({ id: intentId });
    return intent ? toProviderIntent(intent) : null;
  }

  /**
   * Pays an intent with a test card (digits only). A success is final: confirming again returns it
   * unchanged. The updates are conditional on the intent not having succeeded, so of concurrent
   * confirms only one changes it.
   */
  async confirm(intentId: string, cardNumber: string): Promise<ProviderIntent> {
    if (cardNumber === LOCAL_TEST_CARDS.success) {
      await this.intents.update(
        { id: intentId, status: Not('succeeded') },
        { status: 'succeeded', failureMessage: null },
      );
      return toProviderIntent(await this.existing(intentId));
    }
    if (cardNumber === LOCAL_TEST_CARDS.declined) {
      const { affected } = await this.intents.update(
        { id: intentId, status: Not('succeeded') },
        { status: 'failed', failureMessage: DECLINED_MESSAGE },
      );
      if (!affected) return toProviderIntent(await this.existing(intentId));
      throw new DomainError('BILLING.PAYMENT_DECLINED', DECLINED_MESSAGE);
    }
    const intent = await this.existing(intentId);
    if (intent.status === 'succeeded') return toProviderIntent(intent);
    throw new DomainError('BILLING.PAYMENT_DECLINED', TEST_CARDS_ONLY_MESSAGE);
  }

  parseWebhook(_rawBody: string, _signature: string): ProviderEvent {
    throw new DomainError(
      'BILLING.WEBHOOK_INVALID',
      'This installation uses the local test processor and accepts no Stripe webhooks.',
    );
  }

  private async existing(intentId: string): Promise<LocalPaymentIntent> {
    const intent = await this.intents.findOneBy({ id: intentId });
    if (!intent) throw new DomainError('BILLING.PAYMENT_NOT_FOUND', 'We could not find that payment.');
    return intent;
  }
}

function toProviderIntent(intent: LocalPaymentIntent): ProviderIntent {
  return {
    id: intent.id,
    clientSecret: intent.clientSecret,
    status: intent.status,
    amountCents: intent.amountCents,
    currency: intent.currency,
    metadata: intent.metadata,
    ...(intent.failureMessage ? { failureMessage: intent.failureMessage } : {}),
  };
}
