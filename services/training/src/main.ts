import 'reflect-metadata';
import { runServiceMain } from '@likeness/nest-kit';
import { trainingService } from './training.service-definition.js';

await runServiceMain(trainingService);
