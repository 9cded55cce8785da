import { startTracing } from '@likeness/nest-kit/tracing';

// Before the app's modules load, so that tracing's instrumentations see http, fastify and pg loaded.
await startTracing('auth');
await import('reflect-metadata');
const { runServiceMain } = await import('@likeness/nest-kit');
const { authService } = await import('./auth.service-definition.js');

await runServiceMain(authService);
