import 'reflect-metadata';
import { runServiceMain } from '@likeness/nest-kit';
import { mediaService } from './media.service-definition.js';

await runServiceMain(mediaService);
