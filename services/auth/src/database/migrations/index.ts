import { Init1763750000000 } from './1763750000000-init.js';
import { DeadLetters1763900000000 } from './1763900000000-dead-letters.js';
import { RefreshTokenSuccessor1764000000000 } from './1764000000000-refresh-token-successor.js';
import { UserDeletion1764200000000 } from './1764200000000-user-deletion.js';
import { PasswordResetTokens1764300000000 } from './1764300000000-password-reset-tokens.js';

/** In the order they run. */
export const migrations = [
  Init1763750000000,
  DeadLetters1763900000000,
  RefreshTokenSuccessor1764000000000,
  UserDeletion1764200000000,
  PasswordResetTokens1764300000000,
];
