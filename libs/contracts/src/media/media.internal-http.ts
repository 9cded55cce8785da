import { z } from 'zod';
import { defineInternalRoute } from '../internal-http.js';
import {
  ACCEPTED_IMAGE_TYPES,
  avatarsZipQuerySchema,
  imageFormatterQuerySchema,
  mediaFileKeySchema,
  shareTokenSchema,
  signedUrlQuerySchema,
  uploadSelfiesResponseSchema,
} from './media.schemas.js';

/**
 * Media's internal HTTP routes (`/internal/*` on its HTTP port, only with the internal token):
 * the image bytes the gateway streams, which NATS's 1 MB limit keeps off the bus. Media
 * registers these; the gateway calls them, its paths built from these templates.
 */

/** A signed URL's image or training zip (`/api/files/<key>?expires=&signature=`). */
export const signedFile = defineInternalRoute({
  method: 'GET',
  path: '/internal/files/{key+}',
  params: z.object({ key: mediaFileKeySchema }),
  query: signedUrlQuerySchema,
  reply: { type: 'bytes', contentTypes: [...ACCEPTED_IMAGE_TYPES, 'application/zip'] },
});

/** A shared avatar's image (`/api/shared/avatars/<token>`). */
export const sharedAvatar = defineInternalRoute({
  method: 'GET',
  path: '/internal/shared/avatars/{token}',
  params: z.object({ token: shareTokenSchema }),
  query: undefined,
  reply: { type: 'bytes', contentTypes: ACCEPTED_IMAGE_TYPES },
});

/** One of the caller's images converted for download (`/api/image-formatter`). */
export const formatImage = defineInternalRoute({
  method: 'GET',
  path: '/internal/format',
  params: undefined,
  query: imageFormatterQuerySchema,
  reply: { type: 'bytes', contentTypes: ACCEPTED_IMAGE_TYPES },
});

/** The caller's selfies, streamed through as multipart/form-data (`/api/upload-selfies`). */
export const uploadSelfies = defineInternalRoute({
  method: 'POST',
  path: '/internal/selfies',
  params: undefined,
  query: undefined,
  body: 'multipart',
  reply: { type: 'json', status: 201, schema: uploadSelfiesResponseSchema },
});

/** A ZIP of the caller's avatars, streamed as it is written (`/api/avatars/zip`). */
export const avatarsZip = defineInternalRoute({
  method: 'GET',
  path: '/internal/avatars/zip',
  params: undefined,
  query: avatarsZipQuerySchema,
  reply: { type: 'bytes', contentTypes: ['application/zip'] },
});

/** Every internal route of media, for registering them and for tests. */
export const mediaInternalRoutes = [signedFile, sharedAvatar, formatImage, uploadSelfies, avatarsZip] as const;
