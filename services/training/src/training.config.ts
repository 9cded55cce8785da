import { serviceConfigSchema } from '@likeness/nest-kit';
import type { z } from 'zod';

export const trainingConfigSchema = serviceConfigSchema;
export type TrainingConfig = z.output<typeof trainingConfigSchema>;
