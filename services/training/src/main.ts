import { startTracing } from '@likeness/nest-kit/tracing';

// Before the app's modules load, so that tracing's instrumentations see http, fastify and pg loaded.
await startTracing('training');
await import('reflect-metadata');
const { runServiceMain } = await import('@likeness/nest-kit');
const { trainingService } = await import('./training.service-definition.js');

await runServiceMain(trainingService);
