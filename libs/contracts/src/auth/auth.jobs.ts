import { z } from 'zod';
import { defineJob } from '../jobs.js';

const userId = z.number().int().positive();

/**
 * Mails a password reset link to the address, if it belongs to an account. Queued for every
 * request, known address or not, so both answer after the same work; the worker makes the token
 * when it sends (the token exists only in the mail and, hashed, in the database).
 */
export const sendPasswordResetMail = defineJob({
  queue: 'auth',
  name: 'password-reset-mail',
  version: 1,
  payload: z.object({ email: z.string().max(254) }),
});

/** One notice to a user, in the words of libs/mail's templates. */
export const accountMailSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('welcome'), userId }),
  z.object({ kind: z.literal('password-changed'), userId }),
  z.object({ kind: z.literal('model-ready'), userId, modelId: z.number().int().positive(), modelName: z.string() }),
  z.object({ kind: z.literal('training-failed'), userId, modelId: z.number().int().positive(), reason: z.string() }),
  z.object({
    kind: z.literal('receipt'),
    userId,
    paymentId: z.string(),
    packageId: z.string(),
    credits: z.number().int().positive(),
    amountCents: z.number().int().positive(),
    paidAt: z.iso.datetime(),
  }),
  /** To the old address of a deleted account (the account itself is gone, so it names the address). */
  z.object({ kind: z.literal('account-deleted'), to: z.email(), username: z.string() }),
]);
export type AccountMail = z.infer<typeof accountMailSchema>;

/**
 * Sends one notice. Retried with a growing delay while the mail server is away; a message that
 * keeps failing is logged and given up after MAIL_MAX_ATTEMPTS.
 */
export const sendAccountMail = defineJob({
  queue: 'auth',
  name: 'account-mail',
  version: 1,
  payload: accountMailSchema,
});
