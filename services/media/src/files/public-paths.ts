import { fileRoute, sharedAvatarRoute } from '@likeness/contracts';

const prefixOf = (path: string) => path.slice(0, path.indexOf('{'));

/** `/api/files/`: the gateway forwards what follows to media's `/internal/files/`. */
export const FILES_PATH_PREFIX = prefixOf(fileRoute.path);
/** `/api/shared/avatars/`: likewise to `/internal/shared/avatars/`. */
export const SHARED_AVATARS_PATH_PREFIX = prefixOf(sharedAvatarRoute.path);

/** An avatar's share token: 32 random bytes, base64url (the gateway checks the same shape). */
export { SHARE_TOKEN_PATTERN } from '@likeness/contracts';

export const shareUrlOf = (token: string) => `${SHARED_AVATARS_PATH_PREFIX}${token}`;
