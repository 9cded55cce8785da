import type { MediaRpc, RpcRequest, RpcResponse } from '@likeness/contracts';
import { DomainError, queryRows } from '@likeness/nest-kit';
import type { ObjectStorage } from '@likeness/storage';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ImageUrls } from '../files/image-urls.js';
import { IMAGE_NOT_FOUND, openObject } from '../storage/objects.js';
import { OBJECT_STORAGE } from '../storage/storage.providers.js';
import { trainingArchiveKey } from './archive-keys.js';
import { type ZipEntry, zipArchive } from './zip-writer.js';

export const NO_LOCKED_SELFIES = 'There are no selfies set aside for the training of this model.';

/**
 * The zip an outside provider trains from: the selfies locked for a model, stored as they are
 * (JPEGs compress no further), streamed into storage one selfie at a time. It lives as long as
 * the locks: releasing them deletes it.
 */
@Injectable()
export class TrainingArchiveService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly urls: ImageUrls,
  ) {}

  async create(
    request: RpcRequest<typeof MediaRpc.createTrainingArchive>,
  ): Promise<RpcResponse<typeof MediaRpc.createTrainingArchive>> {
    const { userId, modelId, expiresInSeconds } = request;
    const images = await queryRows<{ id: number; storage_key: string }>(
      this.dataSource.manager,
      `SELECT image.id, image.storage_key FROM media.training_locks training_lock
       JOIN media.uploaded_images image ON image.id = training_lock.uploaded_image_id
       WHERE training_lock.model_id = $1 AND training_lock.user_id = $2 ORDER BY image.id`,
      [modelId, userId],
    );
    if (images.length === 0) throw new DomainError('COMMON.NOT_FOUND', NO_LOCKED_SELFIES);

    const entries: ZipEntry[] = await Promise.all(
      images.map(async (image, index) => {
        const info = await this.storage.head(image.storage_key);
        if (!info) throw new DomainError('COMMON.NOT_FOUND', IMAGE_NOT_FOUND);
        return {
          name: `selfie-${String(index + 1).padStart(2, '0')}.jpg`,
          // A selfie that changed since (it never does) holds other bytes than announced: the zip fails.
          size: info.size,
          open: async () => (await openObject(this.storage, image.storage_key)).body,
        };
      }),
    );

    const key = trainingArchiveKey(userId, modelId);
    const archive = await zipArchive(entries);
    try {
      // Asked again for the same model (a retried start): the zip made the first time will do.
      const existing = await this.storage.head(key);
      if (existing?.size !== archive.size) {
        await this.storage.put(key, archive.stream, { contentType: 'application/zip', contentLength: archive.size });
      }
    } finally {
      // Unread (the zip was there) or failed: the selfie being read is closed.
      archive.stream.destroy();
    }
    const url = await this.urls.forProvider(key, expiresInSeconds);
    return { key, ...(url ? { url } : {}) };
  }
}
