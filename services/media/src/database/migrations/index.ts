import { Init1763750000000 } from './1763750000000-init.js';
import { ImagesAndAvatars1763770000000 } from './1763770000000-images-and-avatars.js';

/** In the order they run. */
export const migrations = [Init1763750000000, ImagesAndAvatars1763770000000];
