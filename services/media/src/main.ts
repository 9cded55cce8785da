import { startTracing } from '@likeness/nest-kit/tracing';

// Before the app's modules load, so that tracing's instrumentations see http, fastify and pg loaded.
await startTracing('media');
await import('reflect-metadata');
const { runServiceMain } = await import('@likeness/nest-kit');
const { mediaService } = await import('./media.service-definition.js');

await runServiceMain(mediaService);
