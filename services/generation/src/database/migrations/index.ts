import { Init1763750000000 } from './1763750000000-init.js';
import { GenerationJobs1763800000000 } from './1763800000000-generation-jobs.js';
import { DeadLetters1763900000000 } from './1763900000000-dead-letters.js';

/** In the order they run. */
export const migrations = [Init1763750000000, GenerationJobs1763800000000, DeadLetters1763900000000];
