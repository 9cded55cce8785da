import { z } from 'zod';
import { adminChangePasswordRequestSchema } from '../admin/admin.schemas.js';
import { rowIdSchema } from '../ids.js';
import { defineRpc } from '../rpc.js';
import { snapshotPageSchema, snapshotRequestSchema } from '../snapshots.js';
import {
  changePasswordFields,
  deleteAccountRequestSchema,
  deviceTokenSchema,
  loginRequestSchema,
  messageResponseSchema,
  refineChangePassword,
  refineResetPassword,
  requestPasswordResetRequestSchema,
  resetPasswordFields,
  registerRequestSchema,
  sessionRevocationSchema,
  sessionSchema,
  userSchema,
} from './auth.schemas.js';

const requestMeta = z.object({
  /** The caller's IP, for the per-account and per-IP login throttles and the audit trail. */
  ip: z.string().max(64).optional(),
  userAgent: z.string().max(512).optional(),
});

export const register = defineRpc({
  subject: 'auth.users.register',
  request: registerRequestSchema.extend(requestMeta.shape),
  response: sessionSchema,
});

export const login = defineRpc({
  subject: 'auth.sessions.login',
  request: loginRequestSchema.extend(requestMeta.shape).extend({
    /** The browser's device cookie, if it has one (its signature is auth's to check). */
    deviceToken: deviceTokenSchema.optional(),
  }),
  response: sessionSchema,
});

export const refresh = defineRpc({
  subject: 'auth.sessions.refresh',
  request: z.object({ refreshToken: z.string().min(1).max(512) }).extend(requestMeta.shape),
  response: sessionSchema,
});

export const logout = defineRpc({
  subject: 'auth.sessions.logout',
  request: z.object({ refreshToken: z.string().min(1).max(512) }),
  /** The session it ended, so the gateway replica that asked refuses its access tokens at once. */
  response: z.object({ revoked: z.boolean(), revocation: sessionRevocationSchema.optional() }),
});

export const getUser = defineRpc({
  subject: 'auth.users.get',
  request: z.object({ userId: rowIdSchema }),
  response: userSchema,
});

/** What an account change that ends sessions answers: the gateway that asked refuses them at once. */
const revokingResponse = messageResponseSchema.extend({ revocations: z.array(sessionRevocationSchema) });

/**
 * Queues a reset mail when the address has an account, and answers the same, after the same
 * work, when it has none. Refused (COMMON.RATE_LIMITED) past the per-address limit.
 */
export const requestPasswordReset = defineRpc({
  subject: 'auth.password-resets.request',
  request: requestPasswordResetRequestSchema.extend(requestMeta.shape),
  response: messageResponseSchema,
});

/** Sets a new password with a reset token; AUTH.RESET_TOKEN_INVALID when it is unknown, used or expired. */
export const resetPassword = defineRpc({
  subject: 'auth.password-resets.complete',
  request: refineResetPassword(resetPasswordFields.extend(requestMeta.shape)),
  response: revokingResponse,
});

/** A signed-in user's own password; every session but `sessionId` ends. AUTH.WRONG_PASSWORD on a wrong current one. */
export const changePassword = defineRpc({
  subject: 'auth.passwords.change',
  request: refineChangePassword(
    changePasswordFields.extend({ userId: rowIdSchema, sessionId: z.uuid() }).extend(requestMeta.shape),
  ),
  response: revokingResponse,
});

/**
 * The administrator's own password under SPEC §5's admin rules; requires the `admin` role in
 * the envelope. Otherwise as `changePassword`.
 */
export const changeAdminPassword = defineRpc({
  subject: 'auth.admin.passwords.change',
  request: adminChangePasswordRequestSchema
    .safeExtend({ userId: rowIdSchema, sessionId: z.uuid() })
    .safeExtend(requestMeta.shape),
  response: revokingResponse,
  requiredRole: 'admin',
});

/** Deletes the account (the password confirms it): every session ends, UserDeleted is published. */
export const deleteAccount = defineRpc({
  subject: 'auth.users.delete',
  request: deleteAccountRequestSchema.extend({ userId: rowIdSchema }).extend(requestMeta.shape),
  response: revokingResponse,
});

/** Reporting's rebuild: the live accounts (deleted ones are left out), by id. */
export const snapshotUsers = defineRpc({
  subject: 'auth.snapshot.users',
  request: snapshotRequestSchema(rowIdSchema),
  response: snapshotPageSchema(
    z.object({
      userId: rowIdSchema,
      username: z.string(),
      email: z.string(),
      role: z.enum(['user', 'admin']),
      registeredAt: z.iso.datetime(),
    }),
    rowIdSchema,
  ),
});
