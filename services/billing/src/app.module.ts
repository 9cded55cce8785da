import { APP_CONFIG, ServiceKitModule } from '@likeness/nest-kit';
import { type DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { BillingController } from './billing.controller.js';
import type { BillingConfig } from './billing.config.js';
import { billingDatabase } from './database/billing-database.js';
import { UserDeletedListener } from './erasure/user-deleted.listener.js';
import { AccountsService } from './ledger/accounts.service.js';
import { CreditAdjustmentsService } from './ledger/credit-adjustments.service.js';
import { CreditHistoryService } from './ledger/credit-history.service.js';
import { CreditLedger } from './ledger/credit-ledger.js';
import { HoldsService } from './ledger/holds.service.js';
import { GenerationListener } from './ledger/generation.listener.js';
import { TrainingListener } from './ledger/training.listener.js';
import { UserRegisteredListener } from './ledger/user-registered.listener.js';
import { PackagesService } from './packages/packages.service.js';
import { PaymentsService } from './payments/payments.service.js';
import { PAYMENT_PROVIDER } from './payments/providers/payment-provider.js';
import { announcePaymentProvider, createPaymentProvider } from './payments/providers/create-payment-provider.js';
import { SnapshotController } from './snapshot/snapshot.controller.js';

@Module({})
export class AppModule {
  static forRoot(config: BillingConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ service: 'billing', config, database: billingDatabase(config) })],
      controllers: [SnapshotController, BillingController],
      providers: [
        CreditLedger,
        CreditHistoryService,
        CreditAdjustmentsService,
        AccountsService,
        HoldsService,
        PackagesService,
        PaymentsService,
        UserRegisteredListener,
        TrainingListener,
        GenerationListener,
        UserDeletedListener,
        {
          provide: PAYMENT_PROVIDER,
          useFactory: (appConfig: BillingConfig, dataSource: DataSource) => {
            announcePaymentProvider(appConfig);
            return createPaymentProvider(appConfig, dataSource);
          },
          inject: [APP_CONFIG, getDataSourceToken()],
        },
      ],
    };
  }
}
