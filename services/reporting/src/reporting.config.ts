import { checkNatsCredentials, serviceConfigSchema } from '@likeness/nest-kit';
import type { z } from 'zod';

export const reportingConfigSchema = serviceConfigSchema.superRefine(checkNatsCredentials);
export type ReportingConfig = z.output<typeof reportingConfigSchema>;
