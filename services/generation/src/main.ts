import { startTracing } from '@likeness/nest-kit/tracing';

// Before the app's modules load, so that tracing's instrumentations see http, fastify and pg loaded.
await startTracing(process.env['GENERATION_ROLE'] === 'worker' ? 'generation-worker' : 'generation');
await import('reflect-metadata');
const { runServiceMain } = await import('@likeness/nest-kit');
const { generationService } = await import('./generation.service-definition.js');

await runServiceMain(generationService);
