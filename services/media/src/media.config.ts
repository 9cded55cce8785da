import { serviceConfigSchema } from '@likeness/nest-kit';
import type { z } from 'zod';

export const mediaConfigSchema = serviceConfigSchema;
export type MediaConfig = z.output<typeof mediaConfigSchema>;
