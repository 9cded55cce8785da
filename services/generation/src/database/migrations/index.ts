import { Init1763750000000 } from './1763750000000-init.js';
import { GenerationJobs1763800000000 } from './1763800000000-generation-jobs.js';

/** In the order they run. */
export const migrations = [Init1763750000000, GenerationJobs1763800000000];
