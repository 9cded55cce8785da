import { Init1763750000000 } from './1763750000000-init.js';
import { CustomModels1763780000000 } from './1763780000000-custom-models.js';
import { DeadLetters1763900000000 } from './1763900000000-dead-letters.js';

/** In the order they run. */
export const migrations = [Init1763750000000, CustomModels1763780000000, DeadLetters1763900000000];
