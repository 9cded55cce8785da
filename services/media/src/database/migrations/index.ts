import { Init1763750000000 } from './1763750000000-init.js';
import { ImagesAndAvatars1763770000000 } from './1763770000000-images-and-avatars.js';
import { DeadLetters1763900000000 } from './1763900000000-dead-letters.js';
import { ErasedUsers1764100000000 } from './1764100000000-erased-users.js';
import { AvatarFavourites1764200000000 } from './1764200000000-avatar-favourites.js';

/** In the order they run. */
export const migrations = [
  Init1763750000000,
  ImagesAndAvatars1763770000000,
  DeadLetters1763900000000,
  ErasedUsers1764100000000,
  AvatarFavourites1764200000000,
];
