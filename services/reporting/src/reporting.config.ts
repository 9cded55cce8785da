import { serviceConfigSchema } from '@likeness/nest-kit';
import type { z } from 'zod';

export const reportingConfigSchema = serviceConfigSchema;
export type ReportingConfig = z.output<typeof reportingConfigSchema>;
