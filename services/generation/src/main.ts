import 'reflect-metadata';
import { runServiceMain } from '@likeness/nest-kit';
import { generationService } from './generation.service-definition.js';

await runServiceMain(generationService);
