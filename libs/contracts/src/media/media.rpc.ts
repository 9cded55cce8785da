import { z } from 'zod';
import { rowIdSchema } from '../ids.js';
import { defineRpc } from '../rpc.js';
import {
  AVATAR_PAGE_LIMITS,
  avatarSchema,
  avatarsPageSchema,
  bulkDeleteAvatarsResponseSchema,
  deletedResponseSchema,
  uploadedImageSchema,
} from './media.schemas.js';

const userId = rowIdSchema;
const id = rowIdSchema;

export const listSelfies = defineRpc({
  subject: 'media.selfies.list',
  request: z.object({ userId }),
  response: z.array(uploadedImageSchema),
});

/** Refused with MEDIA.IMAGE_IN_USE while a model in training uses the selfie. */
export const deleteSelfie = defineRpc({
  subject: 'media.selfies.delete',
  request: z.object({ userId, id }),
  response: deletedResponseSchema,
});

/**
 * Marks the caller's selfies as the training set of a model: they cannot be deleted until
 * `releaseSelfies` for that model. Refused with COMMON.NOT_FOUND naming no id when any id is
 * not the user's. Idempotent for the same model.
 */
export const lockSelfiesForTraining = defineRpc({
  subject: 'media.selfies.lock-for-training',
  request: z.object({ userId, modelId: id, imageIds: z.array(id).min(1).max(20) }),
  response: z.object({
    images: z.array(
      z.object({
        id,
        key: z.string(),
        /** A URL an outside provider can fetch until it expires; undefined on local storage. */
        downloadUrl: z.string().optional(),
      }),
    ),
  }),
});

/** The training of a model ended: its selfies can be deleted again. Idempotent. */
export const releaseSelfies = defineRpc({
  subject: 'media.selfies.release',
  request: z.object({ userId, modelId: id }),
  response: z.object({ released: z.number().int().nonnegative() }),
});

/** One page of the user's avatars, newest first (see avatarsQuerySchema). */
export const listAvatars = defineRpc({
  subject: 'media.avatars.list',
  request: z.object({
    userId,
    limit: z.number().int().min(1).max(AVATAR_PAGE_LIMITS.maxPageSize).optional(),
    cursor: z.string().max(200).optional(),
    favourites: z.boolean().optional(),
  }),
  response: avatarsPageSchema,
});

export const setAvatarFavourite = defineRpc({
  subject: 'media.avatars.favourite',
  request: z.object({ userId, id, favourite: z.boolean() }),
  response: avatarSchema,
});

/** Deletes those of the ids that are the user's (others are left alone), objects included. */
export const bulkDeleteAvatars = defineRpc({
  subject: 'media.avatars.bulk-delete',
  request: z.object({ userId, ids: z.array(id).min(1).max(AVATAR_PAGE_LIMITS.maxBulkDelete) }),
  response: bulkDeleteAvatarsResponseSchema,
});

export const deleteAvatar = defineRpc({
  subject: 'media.avatars.delete',
  request: z.object({ userId, id }),
  response: deletedResponseSchema,
});

/**
 * Stores a generated image as an avatar. The bytes travel through storage, never over NATS:
 * the caller puts them under `staging/...` and passes the key; media validates and re-encodes
 * them, keeps the result under the user's prefix and deletes the staged object. The same
 * `sourceRef` (e.g. `<jobId>:<index>`) always yields the same avatar, so a redelivered job
 * never stores an image twice.
 */
export const storeAvatar = defineRpc({
  subject: 'media.avatars.store',
  request: z.object({
    userId,
    promptText: z.string().max(4000),
    customModelId: id.nullable(),
    stagingKey: z.string().regex(/^staging\/[A-Za-z0-9._\-/]+$/),
    sourceRef: z.string().min(1).max(200),
  }),
  response: avatarSchema,
});

/**
 * A zip of the selfies locked for a model's training, kept in storage, and a URL an outside
 * provider can fetch it from until it expires (the provider trains from it).
 */
export const createTrainingArchive = defineRpc({
  subject: 'media.selfies.training-archive',
  request: z.object({
    userId,
    modelId: id,
    expiresInSeconds: z
      .number()
      .int()
      .positive()
      .max(24 * 3600),
  }),
  response: z.object({ key: z.string(), url: z.string().optional() }),
});
