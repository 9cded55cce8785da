import { DomainError } from '@likeness/nest-kit';
import type { ObjectStorage, StoredObject } from '@likeness/storage';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AvatarsService } from '../avatars/avatars.service.js';
import { IMAGE_NOT_FOUND, openObject } from '../storage/objects.js';
import { OBJECT_STORAGE } from '../storage/storage.providers.js';
import { parseTrainingArchiveKey } from '../training/archive-keys.js';
import { ImageUrls } from './image-urls.js';
import { SHARE_TOKEN_PATTERN } from './public-paths.js';

export const LINK_EXPIRED = 'This image link has expired. Reload the page to get a new one.';
/** Shared links may be cached by anyone, briefly: a deleted avatar disappears within minutes. */
const SHARED_MAX_AGE_SECONDS = 300;

export interface ServedImage {
  object: StoredObject;
  cacheControl: string;
}

const notFound = () => new DomainError('COMMON.NOT_FOUND', IMAGE_NOT_FOUND);

/** Image bytes by capability: a signed URL, or an avatar's share token. */
@Injectable()
export class FilesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly urls: ImageUrls,
    private readonly avatars: AvatarsService,
  ) {}

  /**
   * A signed URL's image. A wrong signature is simply not found (it reveals nothing); a right
   * one past its expiry is expired; a right one whose image was deleted is not found either.
   */
  async openSigned(key: string, expires: unknown, signature: unknown): Promise<ServedImage> {
    const check = this.urls.signer.verify(key, expires, signature);
    if (check.status === 'invalid') throw notFound();
    if (check.status === 'expired') throw new DomainError('MEDIA.LINK_EXPIRED', LINK_EXPIRED);
    if (!(await this.belongsToAnImage(key))) throw notFound();
    return { object: await openObject(this.storage, key), cacheControl: `private, max-age=${check.secondsLeft}` };
  }

  /** A shared avatar's image, for as long as the avatar exists. */
  async openShared(token: string): Promise<ServedImage> {
    const avatar = SHARE_TOKEN_PATTERN.test(token) ? await this.avatars.findShared(token) : null;
    if (!avatar) throw notFound();
    return {
      object: await openObject(this.storage, avatar.storageKey),
      cacheControl: `public, max-age=${SHARED_MAX_AGE_SECONDS}`,
    };
  }

  private async belongsToAnImage(key: string): Promise<boolean> {
    // A training's zip is served (to the provider) only while its selfies are locked.
    const archive = parseTrainingArchiveKey(key);
    if (archive) {
      const locks: unknown[] = await this.dataSource.query(
        `SELECT 1 FROM media.training_locks WHERE model_id = $1 AND user_id = $2 LIMIT 1`,
        [archive.modelId, archive.userId],
      );
      return locks.length > 0;
    }
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM media.uploaded_images WHERE storage_key = $1 OR thumbnail_key = $1
       UNION ALL
       SELECT 1 FROM media.avatars WHERE storage_key = $1 OR thumbnail_key = $1
       LIMIT 1`,
      [key],
    );
    return rows.length > 0;
  }
}
