import 'reflect-metadata';
import { runServiceMain } from '@likeness/nest-kit';
import { authService } from './auth.service-definition.js';

await runServiceMain(authService);
