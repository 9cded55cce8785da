import { defineRoute } from '../http.js';
import {
  changePasswordRequestSchema,
  currentUserSchema,
  deleteAccountRequestSchema,
  loginRequestSchema,
  logoutResponseSchema,
  messageResponseSchema,
  registerRequestSchema,
  requestPasswordResetRequestSchema,
  resetPasswordRequestSchema,
} from './auth.schemas.js';

export const registerRoute = defineRoute({
  method: 'POST',
  path: '/api/register',
  created: true,
  summary: 'Create an account and sign in',
  tag: 'auth',
  auth: false,
  params: undefined,
  body: registerRequestSchema,
  response: currentUserSchema,
  errors: ['AUTH.USERNAME_TAKEN', 'AUTH.EMAIL_TAKEN', 'COMMON.RATE_LIMITED', 'COMMON.SERVICE_UNAVAILABLE'],
});

export const loginRoute = defineRoute({
  method: 'POST',
  path: '/api/login',
  summary: 'Sign in with a username or e-mail address and a password',
  tag: 'auth',
  auth: false,
  params: undefined,
  body: loginRequestSchema,
  response: currentUserSchema,
  errors: ['AUTH.INVALID_CREDENTIALS', 'COMMON.RATE_LIMITED', 'COMMON.SERVICE_UNAVAILABLE'],
});

export const logoutRoute = defineRoute({
  method: 'POST',
  path: '/api/logout',
  summary: 'Sign out and revoke the refresh token',
  tag: 'auth',
  auth: false,
  params: undefined,
  body: undefined,
  response: logoutResponseSchema,
  errors: [],
});

export const currentUserRoute = defineRoute({
  method: 'GET',
  path: '/api/user',
  summary: 'The signed-in user',
  tag: 'auth',
  auth: true,
  params: undefined,
  body: undefined,
  response: currentUserSchema,
  errors: ['AUTH.UNAUTHENTICATED'],
});

export const authMeRoute = defineRoute({
  method: 'GET',
  path: '/api/auth/me',
  summary: 'The signed-in user (refreshed after generation and training)',
  tag: 'auth',
  auth: true,
  params: undefined,
  body: undefined,
  response: currentUserSchema,
  errors: ['AUTH.UNAUTHENTICATED'],
});

export const requestPasswordResetRoute = defineRoute({
  method: 'POST',
  path: '/api/request-password-reset',
  summary:
    'Mail a password reset link (valid 1 hour) to the address if it has an account; the answer is the same either way',
  tag: 'auth',
  auth: false,
  params: undefined,
  body: requestPasswordResetRequestSchema,
  response: messageResponseSchema,
  errors: ['COMMON.RATE_LIMITED', 'COMMON.SERVICE_UNAVAILABLE'],
});

export const resetPasswordRoute = defineRoute({
  method: 'POST',
  path: '/api/reset-password',
  summary:
    "Set a new password with a reset link's token (single use); every session of the user ends, every other reset link dies",
  tag: 'auth',
  auth: false,
  params: undefined,
  body: resetPasswordRequestSchema,
  response: messageResponseSchema,
  errors: ['AUTH.RESET_TOKEN_INVALID', 'COMMON.RATE_LIMITED', 'COMMON.SERVICE_UNAVAILABLE'],
});

export const changePasswordRoute = defineRoute({
  method: 'POST',
  path: '/api/change-password',
  summary:
    "Change the signed-in user's password: every other session ends, this one stays signed in, a notice is mailed",
  tag: 'auth',
  auth: true,
  params: undefined,
  body: changePasswordRequestSchema,
  response: messageResponseSchema,
  errors: ['AUTH.UNAUTHENTICATED', 'AUTH.WRONG_PASSWORD', 'COMMON.RATE_LIMITED', 'COMMON.SERVICE_UNAVAILABLE'],
});

/**
 * Deletes the signed-in user's account (confirmed with the password): sign-in refused at once,
 * every session ended, the session cookies cleared, username and e-mail free again; every service
 * then erases what it holds for the user (UserDeleted) and a confirmation goes to the old address.
 */
export const deleteAccountRoute = defineRoute({
  method: 'DELETE',
  path: '/api/account',
  summary: "Delete the signed-in user's account and everything it owns (confirmed with the password)",
  tag: 'auth',
  auth: true,
  params: undefined,
  body: deleteAccountRequestSchema,
  response: messageResponseSchema,
  errors: ['AUTH.UNAUTHENTICATED', 'AUTH.WRONG_PASSWORD', 'COMMON.RATE_LIMITED', 'COMMON.SERVICE_UNAVAILABLE'],
});
