import { defineServiceDatabase } from '@likeness/nest-kit';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';

export const generationDatabase = defineServiceDatabase({ schema: 'generation', entities, migrations });
