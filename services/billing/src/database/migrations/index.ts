import { Init1763750000000 } from './1763750000000-init.js';
import { LedgerAndPayments1763760000000 } from './1763760000000-ledger-and-payments.js';

/** In the order they run. */
export const migrations = [Init1763750000000, LedgerAndPayments1763760000000];
