import 'reflect-metadata';
import { runServiceMain } from '@likeness/nest-kit';
import { billingService } from './billing.service-definition.js';

await runServiceMain(billingService);
