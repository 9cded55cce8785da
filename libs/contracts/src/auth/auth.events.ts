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
