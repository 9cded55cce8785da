import { z } from 'zod';
import { defineRpc } from '../rpc.js';
import { loginRequestSchema, registerRequestSchema, sessionSchema, userSchema } from './auth.schemas.js';

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
  request: loginRequestSchema.extend(requestMeta.shape),
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
  response: z.object({ revoked: z.boolean() }),
});

export const getUser = defineRpc({
  subject: 'auth.users.get',
  request: z.object({ userId: z.number().int().positive() }),
  response: userSchema,
});
