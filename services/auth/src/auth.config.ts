import { envPort, serviceConfigSchema } from '@likeness/nest-kit';
import { z } from 'zod';

export const authConfigSchema = serviceConfigSchema
  .extend({
    HTTP_PORT: envPort(0),
    /** Signs access tokens; the gateway verifies with the same secret. */
    JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(900),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /** The administrator (user id 1) created at first start; all three or none. */
    ADMIN_USERNAME: z.string().optional(),
    ADMIN_EMAIL: z.string().optional(),
    ADMIN_PASSWORD: z.string().optional(),
  })
  .refine(
    (config) =>
      [config.ADMIN_USERNAME, config.ADMIN_EMAIL, config.ADMIN_PASSWORD].every((value) => !value) ||
      [config.ADMIN_USERNAME, config.ADMIN_EMAIL, config.ADMIN_PASSWORD].every(Boolean),
    { error: 'set ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD together, or none of them', path: ['ADMIN_USERNAME'] },
  );

export type AuthConfig = z.output<typeof authConfigSchema>;
