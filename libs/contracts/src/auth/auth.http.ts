import { defineRoute } from '../http.js';
import { currentUserSchema, loginRequestSchema, logoutResponseSchema, registerRequestSchema } from './auth.schemas.js';

export const registerRoute = defineRoute({
  method: 'POST',
  path: '/api/register',
  created: true,
  summary: 'Create an account and sign in',
  tag: 'auth',
  auth: false,
  body: registerRequestSchema,
  response: currentUserSchema,
  errors: ['AUTH.USERNAME_TAKEN', 'AUTH.EMAIL_TAKEN', 'COMMON.RATE_LIMITED'],
});

export const loginRoute = defineRoute({
  method: 'POST',
  path: '/api/login',
  summary: 'Sign in with a username or e-mail address and a password',
  tag: 'auth',
  auth: false,
  body: loginRequestSchema,
  response: currentUserSchema,
  errors: ['AUTH.INVALID_CREDENTIALS', 'COMMON.RATE_LIMITED'],
});

export const logoutRoute = defineRoute({
  method: 'POST',
  path: '/api/logout',
  summary: 'Sign out and revoke the refresh token',
  tag: 'auth',
  auth: false,
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
  body: undefined,
  response: currentUserSchema,
  errors: ['AUTH.UNAUTHENTICATED'],
});
