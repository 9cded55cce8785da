import { z } from 'zod';
import { defineRpc } from '../rpc.js';

export const SERVICE_NAMES = ['auth', 'billing', 'media', 'training', 'generation', 'reporting'] as const;
export const serviceNameSchema = z.enum(SERVICE_NAMES);
export type ServiceName = z.infer<typeof serviceNameSchema>;

export const pingResponseSchema = z.object({
  service: serviceNameSchema,
  version: z.string(),
  uptimeSeconds: z.number().nonnegative(),
  database: z.enum(['up', 'down']),
});
export type PingResponse = z.infer<typeof pingResponseSchema>;

/** Every service answers `<service>.system.ping`; the gateway's /readyz asks them all. */
export function pingRpc<S extends ServiceName>(service: S) {
  return defineRpc({ subject: `${service}.system.ping`, request: z.object({}), response: pingResponseSchema });
}
