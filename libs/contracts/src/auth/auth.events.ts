import { z } from 'zod';
import { defineEvent } from '../events.js';
import { roleSchema } from './auth.schemas.js';

export const UserRegistered = defineEvent({
  service: 'auth',
  name: 'UserRegistered',
  version: 1,
  payload: z.object({
    userId: z.number().int().positive(),
    username: z.string(),
    email: z.string(),
    role: roleSchema,
    registeredAt: z.iso.datetime(),
  }),
});

/**
 * Sessions ended (logout, a replayed refresh token, and later a password change): auth consumes
 * it itself to make sure each revocation reaches the shared revocation list, however long the
 * list's store was unreachable when the sessions were revoked.
 */
export const SessionsRevoked = defineEvent({
  service: 'auth',
  name: 'SessionsRevoked',
  version: 1,
  payload: z.object({
    userId: z.number().int().positive(),
    sessionIds: z.array(z.uuid()).min(1),
    until: z.iso.datetime(),
  }),
});

/**
 * An account was deleted (its owner asked, with their password): auth has already refused it
 * every session and freed its username and e-mail. Every service erases what it owns for the
 * user on it, idempotently; billing keeps the ledger and payments for accounting, unlinked from
 * the person. It names no personal data: the stream keeps events for 30 days.
 */
export const UserDeleted = defineEvent({
  service: 'auth',
  name: 'UserDeleted',
  version: 1,
  payload: z.object({
    userId: z.number().int().positive(),
    deletedAt: z.iso.datetime(),
  }),
});
