import { z } from 'zod';
import { defineRoute } from '../http.js';
import {
  avatarSchema,
  avatarsPageSchema,
  avatarsQuerySchema,
  avatarsZipQuerySchema,
  bulkDeleteAvatarsBodySchema,
  bulkDeleteAvatarsResponseSchema,
  deletedResponseSchema,
  favouriteBodySchema,
  idParamSchema,
  imageFormatterQuerySchema,
  mediaFileKeySchema,
  shareTokenSchema,
  signedUrlQuerySchema,
  uploadSelfiesResponseSchema,
  uploadedImageSchema,
} from './media.schemas.js';

export const uploadSelfiesRoute = defineRoute({
  method: 'POST',
  path: '/api/upload-selfies',
  created: true,
  summary:
    'Upload 1-20 selfies (multipart/form-data, field "selfies" repeated; JPEG, PNG, GIF or WebP, 5 MB each, 30 kept at most). All are stored or none.',
  tag: 'media',
  auth: true,
  params: undefined,
  body: undefined,
  bodyType: 'multipart',
  response: uploadSelfiesResponseSchema,
  errors: [
    'MEDIA.TOO_MANY_FILES',
    'MEDIA.UPLOAD_LIMIT_REACHED',
    'MEDIA.FILE_TOO_LARGE',
    'MEDIA.INVALID_IMAGE',
    'COMMON.PAYLOAD_TOO_LARGE',
    'COMMON.RATE_LIMITED',
  ],
});

export const uploadedImagesRoute = defineRoute({
  method: 'GET',
  path: '/api/uploaded-images',
  summary: "The caller's selfies, newest first, with short-lived signed image URLs",
  tag: 'media',
  auth: true,
  params: undefined,
  body: undefined,
  response: z.array(uploadedImageSchema),
  errors: [],
});

export const deleteUploadedImageRoute = defineRoute({
  method: 'DELETE',
  path: '/api/uploaded-images/{id}',
  summary: "Delete one of the caller's selfies (refused while a model in training uses it)",
  tag: 'media',
  auth: true,
  params: z.object({ id: idParamSchema }),
  body: undefined,
  response: deletedResponseSchema,
  errors: ['COMMON.NOT_FOUND', 'MEDIA.IMAGE_IN_USE'],
});

export const avatarsRoute = defineRoute({
  method: 'GET',
  path: '/api/avatars',
  summary:
    "The caller's avatars, newest first, paged by cursor (limit 1-100, default 24; favourites=true: only starred ones), with how many there are",
  tag: 'media',
  auth: true,
  params: undefined,
  body: undefined,
  query: avatarsQuerySchema,
  response: avatarsPageSchema,
  errors: [],
});

export const favouriteAvatarRoute = defineRoute({
  method: 'PUT',
  path: '/api/avatars/{id}/favourite',
  summary: "Star or unstar one of the caller's avatars",
  tag: 'media',
  auth: true,
  params: z.object({ id: idParamSchema }),
  body: favouriteBodySchema,
  response: avatarSchema,
  errors: ['COMMON.NOT_FOUND'],
});

export const bulkDeleteAvatarsRoute = defineRoute({
  method: 'POST',
  path: '/api/avatars/bulk-delete',
  summary:
    "Delete up to 200 of the caller's avatars at once; ids that are not the caller's are left alone. Answers how many were deleted",
  tag: 'media',
  auth: true,
  params: undefined,
  body: bulkDeleteAvatarsBodySchema,
  response: bulkDeleteAvatarsResponseSchema,
  errors: [],
});

export const avatarsZipRoute = defineRoute({
  method: 'GET',
  path: '/api/avatars/zip',
  summary:
    "A ZIP of the caller's avatars (ids: up to 500, comma-separated; none: the newest 500) in the chosen format (png|jpeg|webp), each with its prompt in a .txt beside it, streamed. One at a time per person",
  tag: 'media',
  auth: true,
  params: undefined,
  body: undefined,
  query: avatarsZipQuerySchema,
  response: z.string().describe('the ZIP bytes'),
  responseType: 'zip',
  errors: ['COMMON.NOT_FOUND', 'COMMON.RATE_LIMITED'],
});

export const deleteAvatarRoute = defineRoute({
  method: 'DELETE',
  path: '/api/avatars/{id}',
  summary: "Delete one of the caller's avatars; its share link stops working",
  tag: 'media',
  auth: true,
  params: z.object({ id: idParamSchema }),
  body: undefined,
  response: deletedResponseSchema,
  errors: ['COMMON.NOT_FOUND'],
});

export const imageFormatterRoute = defineRoute({
  method: 'GET',
  path: '/api/image-formatter',
  summary:
    "Download one of the caller's own images (query: url of the image, format png|jpeg|webp) converted to that format. Never fetches other URLs.",
  tag: 'media',
  auth: true,
  params: undefined,
  body: undefined,
  query: imageFormatterQuerySchema,
  response: z.string().describe('the image bytes'),
  responseType: 'image',
  errors: ['COMMON.NOT_FOUND', 'MEDIA.UNSUPPORTED_URL', 'COMMON.RATE_LIMITED'],
});

export const fileRoute = defineRoute({
  method: 'GET',
  path: '/api/files/{key}',
  summary: 'An image by its signed URL (as listed; the signature expires)',
  tag: 'media',
  auth: false,
  params: z.object({ key: mediaFileKeySchema }),
  body: undefined,
  query: signedUrlQuerySchema,
  response: z.string().describe('the image bytes'),
  responseType: 'image',
  errors: ['COMMON.NOT_FOUND', 'MEDIA.LINK_EXPIRED'],
});

export const sharedAvatarRoute = defineRoute({
  method: 'GET',
  path: '/api/shared/avatars/{token}',
  summary: "A shared avatar's image; works until its owner deletes the avatar",
  tag: 'media',
  auth: false,
  params: z.object({ token: shareTokenSchema }),
  body: undefined,
  response: z.string().describe('the image bytes'),
  responseType: 'image',
  errors: ['COMMON.NOT_FOUND'],
});
