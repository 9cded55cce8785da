import { deadLetterMigration } from '@likeness/nest-kit';

/** Events parked after every attempt failed, kept for a replay instead of dropped. */
export const DeadLetters1763900000000 = deadLetterMigration('auth');
