import { serviceConfigSchema } from '@likeness/nest-kit';
import type { z } from 'zod';

export const generationConfigSchema = serviceConfigSchema;
export type GenerationConfig = z.output<typeof generationConfigSchema>;
