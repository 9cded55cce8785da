import { Init1763750000000 } from './1763750000000-init.js';
import { DeadLetters1763900000000 } from './1763900000000-dead-letters.js';
import { DeletedUsers1764100000000 } from './1764100000000-deleted-users.js';
import { AdminReadModels1764400000000 } from './1764400000000-admin-read-models.js';
import { BalanceTimes1764600000000 } from './1764600000000-balance-times.js';

/** In the order they run. */
export const migrations = [
  Init1763750000000,
  DeadLetters1763900000000,
  DeletedUsers1764100000000,
  AdminReadModels1764400000000,
  BalanceTimes1764600000000,
];
