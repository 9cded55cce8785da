import { BillingRpc, stripeWebhookRoute } from '@likeness/contracts';
import { DomainError, RpcClient } from '@likeness/nest-kit';
import { Controller, Headers, HttpCode, Post, type RawBodyRequest, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** Stripe signs the exact bytes it sent, so billing gets the raw body, not parsed JSON. */
@Controller()
export class StripeWebhookController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(stripeWebhookRoute.path)
  @HttpCode(200)
  receive(@Req() request: RawBodyRequest<FastifyRequest>, @Headers('stripe-signature') signature: string | undefined) {
    if (!request.rawBody || !signature) {
      throw new DomainError(
        'BILLING.WEBHOOK_INVALID',
        'A Stripe webhook needs its JSON body and the Stripe-Signature header.',
      );
    }
    return this.rpc.call(BillingRpc.handleStripeWebhook, { payload: request.rawBody.toString('utf8'), signature });
  }
}
