import { AdminRpc, BillingRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler, currentCaller } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { AccountsService } from './ledger/accounts.service.js';
import { CreditAdjustmentsService } from './ledger/credit-adjustments.service.js';
import { CreditHistoryService } from './ledger/credit-history.service.js';
import { HoldsService } from './ledger/holds.service.js';
import { PackagesService } from './packages/packages.service.js';
import { PaymentsService } from './payments/payments.service.js';

@Controller()
export class BillingController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly holds: HoldsService,
    private readonly packages: PackagesService,
    private readonly payments: PaymentsService,
    private readonly history: CreditHistoryService,
    private readonly adjustments: CreditAdjustmentsService,
  ) {}

  @RpcHandler(BillingRpc.getBalance)
  balance(request: RpcRequest<typeof BillingRpc.getBalance>) {
    return this.accounts.balance(request.userId);
  }

  @RpcHandler(BillingRpc.openAccount)
  open(request: RpcRequest<typeof BillingRpc.openAccount>) {
    return this.accounts.open(request.userId);
  }

  @RpcHandler(BillingRpc.reserveCredits)
  reserve(request: RpcRequest<typeof BillingRpc.reserveCredits>) {
    return this.holds.reserve(request);
  }

  @RpcHandler(BillingRpc.captureCredits)
  async capture(request: RpcRequest<typeof BillingRpc.captureCredits>) {
    return { reference: request.reference, status: await this.holds.capture(request.reference) };
  }

  @RpcHandler(BillingRpc.releaseCredits)
  async release(request: RpcRequest<typeof BillingRpc.releaseCredits>) {
    return { reference: request.reference, status: await this.holds.release(request.reference) };
  }

  @RpcHandler(BillingRpc.getCreditHistory)
  creditHistory(request: RpcRequest<typeof BillingRpc.getCreditHistory>) {
    return this.history.page(request.userId, request.page, request.pageSize);
  }

  /** The kit lets only an admin caller through; the adjustment names them. */
  @RpcHandler(AdminRpc.adjustCredits)
  adjustCredits(request: RpcRequest<typeof AdminRpc.adjustCredits>) {
    const admin = currentCaller();
    if (!admin) throw new Error('adjustCredits ran without the caller the kit requires');
    return this.adjustments.adjust(request, admin.userId);
  }

  @RpcHandler(BillingRpc.getGenerationPriority)
  async generationPriority(request: RpcRequest<typeof BillingRpc.getGenerationPriority>) {
    return { priority: await this.payments.hasGenerationPriority(request.userId) };
  }

  @RpcHandler(BillingRpc.listPackages)
  listPackages() {
    return this.packages.list();
  }

  @RpcHandler(BillingRpc.getPaymentConfig)
  paymentConfig() {
    return this.payments.config();
  }

  @RpcHandler(BillingRpc.createPaymentIntent)
  createPaymentIntent(request: RpcRequest<typeof BillingRpc.createPaymentIntent>) {
    return this.payments.createIntent(request.userId, request.packageId);
  }

  @RpcHandler(BillingRpc.confirmPayment)
  confirmPayment(request: RpcRequest<typeof BillingRpc.confirmPayment>) {
    return this.payments.confirm(request.userId, request.paymentIntentId);
  }

  @RpcHandler(BillingRpc.confirmLocalPayment)
  confirmLocalPayment(request: RpcRequest<typeof BillingRpc.confirmLocalPayment>) {
    return this.payments.confirmLocal(request.userId, request.paymentIntentId, request.cardNumber);
  }

  @RpcHandler(BillingRpc.handleStripeWebhook)
  async stripeWebhook(request: RpcRequest<typeof BillingRpc.handleStripeWebhook>) {
    await this.payments.handleWebhook(request.payload, request.signature);
    return { received: true as const };
  }
}
