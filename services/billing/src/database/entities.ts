import { Account } from '../ledger/account.entity.js';
import { CreditAdjustment } from '../ledger/credit-adjustment.entity.js';
import { Hold } from '../ledger/hold.entity.js';
import { LedgerEntry } from '../ledger/ledger-entry.entity.js';
import { CreditPackageRow } from '../packages/credit-package.entity.js';
import { Payment } from '../payments/payment.entity.js';
import { LocalPaymentIntent } from '../payments/providers/local-payment-intent.entity.js';

/** The service's own tables (the outbox and inbox come with the kit). */
export const entities: Function[] = [
  Account,
  LedgerEntry,
  Hold,
  CreditPackageRow,
  Payment,
  LocalPaymentIntent,
  CreditAdjustment,
];
