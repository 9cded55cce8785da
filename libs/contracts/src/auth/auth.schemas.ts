import { z } from 'zod';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
/** The user with this id is the administrator (SPEC.md §6, DESIGN.md §5). */
export const ADMIN_USER_ID = 1;
export { WELCOME_CREDITS } from '../costs.js';

export const roleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof roleSchema>;

export const usernameSchema = z
  .string({ error: 'Username is required' })
  .min(USERNAME_MIN, { error: `Username must be at least ${USERNAME_MIN} characters` })
  .max(USERNAME_MAX, { error: `Username must be at most ${USERNAME_MAX} characters` })
  .regex(/^[A-Za-z0-9_]+$/, { error: 'Username can only contain letters, numbers, and underscores' });

export const emailSchema = z
  .string({ error: 'Please enter a valid email' })
  .trim()
  .max(254, { error: 'Please enter a valid email' })
  .pipe(z.email({ error: 'Please enter a valid email' }));

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters` });

/** POST /api/register: what the SPA sends (the confirmation stays in the browser). */
export const registerRequestSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** The Register tab's form: the request plus a confirmation that must match. */
export const registerFormSchema = registerRequestSchema
  .extend({ confirmPassword: z.string({ error: 'Passwords do not match' }) })
  .refine((form) => form.password === form.confirmPassword, {
    error: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

/** POST /api/login: `username` holds a username or an e-mail address. */
export const loginRequestSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, { error: 'Username is required' }).max(254),
  password: z
    .string({ error: 'Password must be at least 6 characters' })
    .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters` })
    .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters` }),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** Every answer of the account routes that only confirms: `{ message }` in the user's words. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** Whether or not the address has an account, the request for a reset answers this (SPEC §2). */
export const PASSWORD_RESET_REQUESTED_MESSAGE =
  "If an account with that email exists, you'll receive a password reset link shortly";
export const PASSWORD_RESET_MESSAGE = 'Your password has been reset. You can now log in with your new password.';
export const PASSWORD_CHANGED_MESSAGE = 'Password updated';
export const ACCOUNT_DELETED_MESSAGE = 'Your account has been deleted.';
/** SPEC §8: a used, expired, foreign or missing reset token. */
export const RESET_TOKEN_INVALID_MESSAGE = 'This password reset link is invalid or has expired.';
/** How long a reset link works. */
export const PASSWORD_RESET_TOKEN_TTL_MINUTES = 60;
/** Reset tokens are 32 random bytes in base64url (43 characters); anything far longer is not one. */
export const RESET_TOKEN_MAX_LENGTH = 256;

const MATCH_MESSAGE = 'Passwords do not match';

/** POST /api/request-password-reset (SPEC §5: "Please enter a valid email address"). */
export const requestPasswordResetRequestSchema = z.object({
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(254, { error: 'Please enter a valid email address' })
    .pipe(z.email({ error: 'Please enter a valid email address' })),
});
export type RequestPasswordResetRequest = z.infer<typeof requestPasswordResetRequestSchema>;

/** The fields of POST /api/reset-password, before the confirmation is checked. */
export const resetPasswordFields = z.object({
  token: z
    .string({ error: 'Reset token is required' })
    .trim()
    .min(1, { error: 'Reset token is required' })
    .max(RESET_TOKEN_MAX_LENGTH, { error: RESET_TOKEN_INVALID_MESSAGE }),
  password: passwordSchema,
  confirmPassword: z.string({ error: MATCH_MESSAGE }).max(PASSWORD_MAX, { error: MATCH_MESSAGE }),
});

/** The confirmation of a new password must match it. */
export function refineResetPassword<S extends z.ZodType<z.output<typeof resetPasswordFields>>>(schema: S) {
  return schema.refine((form) => form.password === form.confirmPassword, {
    error: MATCH_MESSAGE,
    path: ['confirmPassword'],
  });
}

/** POST /api/reset-password (SPEC §5: token required, password min 6, the confirmation must match). */
export const resetPasswordRequestSchema = refineResetPassword(resetPasswordFields);
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** The fields of POST /api/change-password, before the cross-field checks. */
export const changePasswordFields = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, { error: 'Current password is required' })
    .max(PASSWORD_MAX, { error: 'Current password is incorrect' }),
  newPassword: passwordSchema,
  confirmPassword: z.string({ error: MATCH_MESSAGE }).max(PASSWORD_MAX, { error: MATCH_MESSAGE }),
});

/** The new password must be confirmed and must differ from the current one. */
export function refineChangePassword<S extends z.ZodType<z.output<typeof changePasswordFields>>>(schema: S) {
  return schema
    .refine((form) => form.newPassword === form.confirmPassword, { error: MATCH_MESSAGE, path: ['confirmPassword'] })
    .refine((form) => form.newPassword !== form.currentPassword, {
      error: 'New password must be different from the current password',
      path: ['newPassword'],
    });
}

/** POST /api/change-password: the signed-in user's own password (min length as registration). */
export const changePasswordRequestSchema = refineChangePassword(changePasswordFields);
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** AUTH.WRONG_PASSWORD on a password change, with an issue on `currentPassword`. */
export const WRONG_CURRENT_PASSWORD_MESSAGE = 'Current password is incorrect';
/** AUTH.WRONG_PASSWORD on an account deletion, with an issue on `password`. */
export const WRONG_PASSWORD_MESSAGE = 'Password is incorrect';

/** DELETE /api/account: the owner confirms with their password. */
export const deleteAccountRequestSchema = z.object({
  password: z
    .string({ error: 'Password is required' })
    .min(1, { error: 'Password is required' })
    .max(PASSWORD_MAX, { error: 'Password is incorrect' }),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

/** A user as the auth service knows one. */
export const userSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: z.iso.datetime(),
});
export type User = z.infer<typeof userSchema>;

/** The signed-in user as the SPA sees it (GET /api/user, GET /api/auth/me, login, register). */
export const currentUserSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  email: z.string(),
  credits: z.number().int().nonnegative(),
  role: roleSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const logoutResponseSchema = z.object({ success: z.literal(true) });
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;

/** What the access token carries. */
export const accessClaimsSchema = z.object({
  sub: z.string(),
  username: z.string(),
  role: roleSchema,
  /** The session (the refresh-token family) it was issued for: revoking the session refuses the token. */
  sid: z.uuid(),
});
export type AccessClaims = z.infer<typeof accessClaimsSchema>;

/** A session handed to the gateway, which turns it into cookies. */
export const sessionSchema = z.object({
  user: userSchema,
  accessToken: z.string(),
  accessTokenExpiresAt: z.iso.datetime(),
  refreshToken: z.string(),
  refreshTokenExpiresAt: z.iso.datetime(),
  /**
   * After a login with the right password: a signed token naming the account, kept by the browser
   * (a device cookie), that exempts it from the account's lockout on later logins.
   */
  deviceToken: z.string().optional(),
  deviceTokenExpiresAt: z.iso.datetime().optional(),
});
export type Session = z.infer<typeof sessionSchema>;

/** The shape of a device token (a device cookie holding anything else is ignored). */
export const deviceTokenSchema = z.string().regex(/^[\w.-]{1,512}$/);

/**
 * Revoked sessions, shared by auth (which writes them) and every gateway replica (which watches
 * them): the NATS KV bucket's name (without the namespace), keyed by session id, each entry
 * living until the last access token of its session has expired.
 */
export const SESSION_REVOCATIONS_BUCKET = 'session_revocations';
export const sessionRevocationSchema = z.object({
  sessionId: z.uuid(),
  /** After this moment no access token of the session is valid anyway. */
  until: z.iso.datetime(),
});
export type SessionRevocation = z.infer<typeof sessionRevocationSchema>;
