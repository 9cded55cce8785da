import { randomBytes, randomUUID } from 'node:crypto';
import {
  AVATAR_PAGE_LIMITS,
  type Avatar as AvatarView,
  type AvatarsPage,
  MAX_STORED_INTEGER,
  type MediaRpc,
  type RpcRequest,
} from '@likeness/contracts';
import { DomainError, queryRows } from '@likeness/nest-kit';
import type { ObjectStorage } from '@likeness/storage';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ACCOUNT_ERASED, assertNotErased, isErased, lockUserMedia } from '../erasure/user-lock.js';
import { ImageUrls } from '../files/image-urls.js';
import { shareUrlOf } from '../files/public-paths.js';
import { ImageRejectedError, MAX_SIDE, reencodeImage } from '../images/image-processor.js';
import { deleteObjectsQuietly, readObject } from '../storage/objects.js';
import { OBJECT_STORAGE } from '../storage/storage.providers.js';
import { Avatar } from './avatar.entity.js';
import { afterPosition, decodeAvatarCursor, encodeAvatarCursor } from './avatar-cursor.js';

export const AVATAR_NOT_FOUND = 'That avatar was not found.';
/** Generated images come from our own pipeline: larger than a selfie may be, but not without bound. */
const MAX_STAGED_BYTES = 20 * 1024 * 1024;
/** Providers make 1-4 MP; a bound against a bomb, not a judgement of the picture. */
const MAX_GENERATED_PIXELS = 40_000_000;
/**
 * Avatars are kept as high-quality JPEG: every app a shared link lands in shows it, and it
 * encodes in half the time of WebP (a new avatar is waited for). Thumbnails stay WebP.
 */
const JPEG_QUALITY = 90;

const invalidGeneratedImage = (message: string) => new DomainError('MEDIA.INVALID_IMAGE', message);
const GENERATED_IMAGE_MESSAGES = {
  notAnImage: 'The generated image is not a JPEG, PNG, GIF or WebP image.',
  tooManyPixels: `The generated image has too many pixels (at most ${MAX_GENERATED_PIXELS / 1_000_000} megapixels).`,
  unreadable: 'The generated image could not be read as an image.',
} as const;

/** Generated images kept for their owner, and their share links. */
@Injectable()
export class AvatarsService {
  private readonly logger = new Logger(AvatarsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly urls: ImageUrls,
  ) {}

  private get avatars() {
    return this.dataSource.getRepository(Avatar);
  }

  /**
   * One page, newest first; an avatar without a date counts as the oldest (SPEC.md §3). The
   * order is stable (ties broken by id), so paging on never repeats or skips an avatar.
   */
  async list(request: RpcRequest<typeof MediaRpc.listAvatars>): Promise<AvatarsPage> {
    const { userId, limit = AVATAR_PAGE_LIMITS.defaultPageSize, cursor, favourites = false } = request;
    const filter = ['user_id = $1', ...(favourites ? ['favourite'] : [])];
    const after = cursor ? afterPosition(decodeAvatarCursor(cursor, favourites), 2) : undefined;
    const where = [...filter, ...(after ? [after.sql] : [])];
    const params = [userId, ...(after?.params ?? [])];
    const [avatars, total] = await Promise.all([
      queryRows<RawAvatar & { position: string | null }>(
        this.dataSource.manager,
        // The cursor keeps the date to the microsecond, as stored: a millisecond would skip rows.
        `SELECT *, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
         FROM media.avatars WHERE ${where.join(' AND ')}
         ORDER BY created_at DESC NULLS LAST, id DESC LIMIT $${params.length + 1}`,
        [...params, limit + 1],
      ),
      this.count(filter, [userId]),
    ]);
    const page = avatars.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => this.toView(fromRow(row))),
      nextCursor:
        avatars.length > limit && last
          ? encodeAvatarCursor({ createdAt: last.position, id: last.id }, favourites)
          : null,
      total,
    };
  }

  private async count(where: string[], params: unknown[]): Promise<number> {
    const [row] = await queryRows<{ count: string }>(
      this.dataSource.manager,
      `SELECT count(*) FROM media.avatars WHERE ${where.join(' AND ')}`,
      [...params],
    );
    return Number(row?.count ?? 0);
  }

  async setFavourite(userId: number, id: number, favourite: boolean): Promise<AvatarView> {
    const [row] = await queryRows<RawAvatar>(
      this.dataSource.manager,
      `UPDATE media.avatars SET favourite = $3 WHERE id = $1 AND user_id = $2 RETURNING *`,
      [id, userId, favourite],
    );
    if (!row) throw new DomainError('COMMON.NOT_FOUND', AVATAR_NOT_FOUND);
    return this.toView(fromRow(row));
  }

  /** Deletes those of the ids that are the user's, like `delete` does one; another's id matches nothing. */
  async deleteMany(userId: number, ids: readonly number[]): Promise<{ deleted: number }> {
    const storable = ids.filter((id) => id <= MAX_STORED_INTEGER);
    const removed = await queryRows<{ storage_key: string; thumbnail_key: string }>(
      this.dataSource.manager,
      `DELETE FROM media.avatars WHERE user_id = $1 AND id = ANY($2::int[]) RETURNING storage_key, thumbnail_key`,
      [userId, storable],
    );
    await deleteObjectsQuietly(
      this.storage,
      removed.flatMap((avatar) => [avatar.storage_key, avatar.thumbnail_key]),
      this.logger,
    );
    return { deleted: removed.length };
  }

  /** Deleting the row ends the share link at once; the objects follow. */
  async delete(userId: number, id: number): Promise<{ deleted: true }> {
    const [avatar] = await queryRows<{ storage_key: string; thumbnail_key: string }>(
      this.dataSource.manager,
      `DELETE FROM media.avatars WHERE id = $1 AND user_id = $2 RETURNING storage_key, thumbnail_key`,
      [id, userId],
    );
    if (!avatar) throw new DomainError('COMMON.NOT_FOUND', AVATAR_NOT_FOUND);
    await deleteObjectsQuietly(this.storage, [avatar.storage_key, avatar.thumbnail_key], this.logger);
    return { deleted: true };
  }

  /**
   * Deletes what a generation job stored (`generation:<jobId>:<n>`); idempotent. The rows go in
   * their own transaction, then the objects, so an image never outlives its row's deletion.
   */
  async deleteOutputsOf(userId: number, jobId: string): Promise<number> {
    const removed = await queryRows<{ storage_key: string; thumbnail_key: string }>(
      this.dataSource.manager,
      `DELETE FROM media.avatars WHERE user_id = $1 AND source_ref LIKE $2 RETURNING storage_key, thumbnail_key`,
      [userId, `generation:${jobId}:%`],
    );
    await deleteObjectsQuietly(
      this.storage,
      removed.flatMap((avatar) => [avatar.storage_key, avatar.thumbnail_key]),
      this.logger,
    );
    if (removed.length > 0) this.logger.log(`Removed ${removed.length} avatar(s) of failed generation ${jobId}`);
    return removed.length;
  }

  /**
   * Keeps a staged generated image as an avatar: checked and re-encoded like a selfie, stored
   * under the owner's prefix, the staged object deleted. The same sourceRef always answers with
   * the same avatar, however often (or concurrently) it is asked.
   */
  async store(request: RpcRequest<typeof MediaRpc.storeAvatar>): Promise<AvatarView> {
    const existing = await this.avatars.findOneBy({ sourceRef: request.sourceRef });
    if (existing) return this.repeated(existing, request);
    if (await isErased(this.dataSource.manager, request.userId)) {
      // The account was deleted while its job ran: nothing of it is kept, the staged image included.
      await deleteObjectsQuietly(this.storage, [request.stagingKey], this.logger);
      throw new DomainError('COMMON.NOT_FOUND', ACCOUNT_ERASED);
    }

    const staged = await readObject(this.storage, request.stagingKey, {
      maxBytes: MAX_STAGED_BYTES,
      tooLarge: () => invalidGeneratedImage('The generated image is larger than 20 MB.'),
    });
    const encoded = await reencodeImage(staged, {
      output: 'jpeg',
      quality: JPEG_QUALITY,
      maxSide: MAX_SIDE.avatar,
      maxPixels: MAX_GENERATED_PIXELS,
    }).catch((error: unknown) => {
      throw error instanceof ImageRejectedError ? invalidGeneratedImage(GENERATED_IMAGE_MESSAGES[error.reason]) : error;
    });
    const base = `users/${request.userId}/avatars/${randomUUID()}`;
    const keys = { storageKey: `${base}.jpg`, thumbnailKey: `${base}.thumb.webp` };
    let inserted = false;
    try {
      await Promise.all([
        this.storage.put(keys.storageKey, encoded.image, { contentType: encoded.contentType }),
        this.storage.put(keys.thumbnailKey, encoded.thumbnail, { contentType: 'image/webp' }),
      ]);
      const rows = await this.dataSource.transaction(async (manager) => {
        // Refused if the account was erased meanwhile; an erasure that comes after deletes it.
        await lockUserMedia(manager, request.userId);
        await assertNotErased(manager, request.userId);
        return queryRows<{ id: number }>(
          manager,
          `INSERT INTO media.avatars
             (user_id, prompt_text, custom_model_id, source_ref, share_token, storage_key, thumbnail_key)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (source_ref) DO NOTHING RETURNING id`,
          [
            request.userId,
            request.promptText,
            request.customModelId,
            request.sourceRef,
            randomBytes(32).toString('base64url'),
            keys.storageKey,
            keys.thumbnailKey,
          ],
        );
      });
      inserted = rows.length > 0;
    } finally {
      // A concurrent call with the same sourceRef won the insert (or storing failed): ours go.
      if (!inserted) await deleteObjectsQuietly(this.storage, Object.values(keys), this.logger);
    }
    const avatar = await this.avatars.findOneByOrFail({ sourceRef: request.sourceRef });
    await deleteObjectsQuietly(this.storage, [request.stagingKey], this.logger);
    return this.toView(avatar);
  }

  /** A sourceRef seen before: the avatar it made, and the staged object gone if it was left behind. */
  private async repeated(avatar: Avatar, request: RpcRequest<typeof MediaRpc.storeAvatar>): Promise<AvatarView> {
    if (avatar.userId !== request.userId) {
      throw new Error(`sourceRef ${request.sourceRef} already stored an avatar for another user`);
    }
    await deleteObjectsQuietly(this.storage, [request.stagingKey], this.logger);
    return this.toView(avatar);
  }

  findShared(shareToken: string): Promise<Avatar | null> {
    return this.avatars.findOneBy({ shareToken });
  }

  /** The caller's avatar whose image or thumbnail is `key`. */
  findOwnedByKey(userId: number, key: string): Promise<Avatar | null> {
    return this.avatars.findOne({
      where: [
        { userId, storageKey: key },
        { userId, thumbnailKey: key },
      ],
    });
  }

  findOwnedByShareToken(userId: number, shareToken: string): Promise<Avatar | null> {
    return this.avatars.findOneBy({ userId, shareToken });
  }

  toView(avatar: Avatar): AvatarView {
    return {
      id: avatar.id,
      promptText: avatar.promptText,
      imageUrl: this.urls.signed(avatar.storageKey),
      thumbnailUrl: this.urls.signed(avatar.thumbnailKey),
      shareUrl: shareUrlOf(avatar.shareToken),
      customModelId: avatar.customModelId,
      createdAt: avatar.createdAt?.toISOString() ?? null,
      favourite: avatar.favourite,
    };
  }
}

/** A row of media.avatars as PostgreSQL answers it. */
interface RawAvatar {
  id: number;
  user_id: number;
  prompt_text: string;
  storage_key: string;
  thumbnail_key: string;
  custom_model_id: number | null;
  share_token: string;
  source_ref: string;
  favourite: boolean;
  created_at: Date | null;
}

function fromRow(row: RawAvatar): Avatar {
  return Object.assign(new Avatar(), {
    id: row.id,
    userId: row.user_id,
    promptText: row.prompt_text,
    storageKey: row.storage_key,
    thumbnailKey: row.thumbnail_key,
    customModelId: row.custom_model_id,
    shareToken: row.share_token,
    sourceRef: row.source_ref,
    favourite: row.favourite,
    createdAt: row.created_at,
  });
}
