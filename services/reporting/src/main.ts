import 'reflect-metadata';
import { runServiceMain } from '@likeness/nest-kit';
import { runRebuild } from './rebuild/rebuild-command.js';
import { reportingService } from './reporting.service-definition.js';

// `node main.js rebuild` empties the read models and fills them again from the services' snapshots.
if (process.argv[2] === 'rebuild') await runRebuild(reportingService);
else await runServiceMain(reportingService);
