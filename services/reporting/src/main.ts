import 'reflect-metadata';
import { runServiceMain } from '@likeness/nest-kit';
import { reportingService } from './reporting.service-definition.js';

await runServiceMain(reportingService);
