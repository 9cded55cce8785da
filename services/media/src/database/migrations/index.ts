import { Init1763750000000 } from './1763750000000-init.js';

/** In the order they run. */
export const migrations = [Init1763750000000];
