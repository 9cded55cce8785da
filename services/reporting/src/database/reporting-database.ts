import { defineServiceDatabase } from '@likeness/nest-kit';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';

export const reportingDatabase = defineServiceDatabase({ schema: 'reporting', entities, migrations });
