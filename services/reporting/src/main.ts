import { startTracing } from '@likeness/nest-kit/tracing';

// Before the app's modules load, so that tracing's instrumentations see http, fastify and pg loaded.
await startTracing(process.argv[2] === 'rebuild' ? 'reporting-rebuild' : 'reporting');
await import('reflect-metadata');
const { runServiceMain } = await import('@likeness/nest-kit');
const { runRebuild } = await import('./rebuild/rebuild-command.js');
const { reportingService } = await import('./reporting.service-definition.js');

// `node main.js rebuild` empties the read models and fills them again from the services' snapshots.
if (process.argv[2] === 'rebuild') await runRebuild(reportingService);
else await runServiceMain(reportingService);
