import { Init1763750000000 } from './1763750000000-init.js';
import { LedgerAndPayments1763760000000 } from './1763760000000-ledger-and-payments.js';
import { DeadLetters1763900000000 } from './1763900000000-dead-letters.js';
import { AccountClosed1764100000000 } from './1764100000000-account-closed.js';
import { HoldsByUser1764300000000 } from './1764300000000-holds-by-user.js';
import { CreditAdjustments1764400000000 } from './1764400000000-credit-adjustments.js';
import { PaymentRefundedCents1764450000000 } from './1764450000000-payment-refunded-cents.js';
import { PaymentTimes1764500000000 } from './1764500000000-payment-times.js';
import { BalanceChangedAt1764600000000 } from './1764600000000-balance-changed-at.js';

/** In the order they run. */
export const migrations = [
  Init1763750000000,
  LedgerAndPayments1763760000000,
  DeadLetters1763900000000,
  AccountClosed1764100000000,
  HoldsByUser1764300000000,
  CreditAdjustments1764400000000,
  PaymentRefundedCents1764450000000,
  PaymentTimes1764500000000,
  BalanceChangedAt1764600000000,
];
