import type { MediaRpc, RpcRequest, RpcResponse, UploadedImage as UploadedImageView } from '@likeness/contracts';
import { DomainError, queryRows } from '@likeness/nest-kit';
import type { ObjectStorage } from '@likeness/storage';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In } from 'typeorm';
import { ImageUrls } from '../files/image-urls.js';
import { deleteObjectsQuietly } from '../storage/objects.js';
import { OBJECT_STORAGE } from '../storage/storage.providers.js';
import { trainingArchiveKey } from '../training/archive-keys.js';
import { TrainingLock } from './training-lock.entity.js';
import { UploadedImage } from './uploaded-image.entity.js';

export const SELFIE_NOT_FOUND = 'That selfie was not found.';
export const SELFIE_IN_USE =
  'This selfie is being used to train a model. You can delete it once the training has finished.';
const SOME_SELFIES_NOT_FOUND = 'Some of the selected selfies no longer exist. Please choose your selfies again.';

/** The person's selfies: listing, deleting, and the locks a training holds on them. */
@Injectable()
export class SelfiesService {
  private readonly logger = new Logger(SelfiesService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly urls: ImageUrls,
  ) {}

  /** Newest first, as the SPA shows them. */
  async list(userId: number): Promise<UploadedImageView[]> {
    const images = await this.dataSource.getRepository(UploadedImage).find({
      where: { userId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    const locked = await this.lockedAmong(images.map((image) => image.id));
    return images.map((image) => this.toView(image, locked.has(image.id)));
  }

  /** The caller's selfie whose image or thumbnail is `key`. */
  findOwnedByKey(userId: number, key: string): Promise<UploadedImage | null> {
    return this.dataSource.getRepository(UploadedImage).findOne({
      where: [
        { userId, storageKey: key },
        { userId, thumbnailKey: key },
      ],
    });
  }

  toView(image: UploadedImage, inUse: boolean): UploadedImageView {
    return {
      id: image.id,
      imageUrl: this.urls.signed(image.storageKey),
      thumbnailUrl: this.urls.signed(image.thumbnailKey),
      originalFilename: image.originalFilename,
      inUse,
      createdAt: image.createdAt.toISOString(),
    };
  }

  /**
   * Deletes the row in a transaction (refused while a training holds it), then the objects;
   * a failed object delete never brings the row back.
   */
  async delete(userId: number, id: number): Promise<{ deleted: true }> {
    const image = await this.dataSource.transaction(async (manager) => {
      const found = await manager.findOne(UploadedImage, {
        where: { id, userId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!found) throw new DomainError('COMMON.NOT_FOUND', SELFIE_NOT_FOUND);
      if (await manager.exists(TrainingLock, { where: { uploadedImageId: id } })) {
        throw new DomainError('MEDIA.IMAGE_IN_USE', SELFIE_IN_USE);
      }
      await manager.delete(UploadedImage, { id });
      return found;
    });
    await deleteObjectsQuietly(this.storage, [image.storageKey, image.thumbnailKey], this.logger);
    return { deleted: true };
  }

  /**
   * Locks the person's selfies for the training of a model; the same model asking again
   * changes nothing. The rows are locked first, so a delete racing with this either finishes
   * before (and this answers not found) or waits and is refused.
   */
  async lockForTraining(
    request: RpcRequest<typeof MediaRpc.lockSelfiesForTraining>,
  ): Promise<RpcResponse<typeof MediaRpc.lockSelfiesForTraining>> {
    const { userId, modelId } = request;
    const ids = [...new Set(request.imageIds)];
    const images = await this.dataSource.transaction(async (manager) => {
      const found = await manager.find(UploadedImage, {
        where: { id: In(ids), userId },
        order: { id: 'ASC' },
        lock: { mode: 'pessimistic_write' },
      });
      if (found.length !== ids.length) throw new DomainError('COMMON.NOT_FOUND', SOME_SELFIES_NOT_FOUND);
      await manager
        .createQueryBuilder()
        .insert()
        .into(TrainingLock)
        .values(ids.map((uploadedImageId) => ({ uploadedImageId, modelId, userId })))
        .orIgnore()
        .execute();
      await manager.update(UploadedImage, { id: In(ids) }, { isReferenceImage: true, customModelId: modelId });
      return new Map(found.map((image) => [image.id, image]));
    });
    const ordered = request.imageIds.flatMap((id) => images.get(id) ?? []);
    return {
      images: await Promise.all(
        ordered.map(async (image) => ({
          id: image.id,
          key: image.storageKey,
          downloadUrl: await this.urls.forProvider(image.storageKey),
        })),
      ),
    };
  }

  /**
   * The training of a model ended: its locks go (other models' locks stay), and so does the zip
   * made for its provider. In the caller's transaction when given one (an event's inbox).
   */
  async release(
    userId: number,
    modelId: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ released: number }> {
    const released = await queryRows<{ uploaded_image_id: number }>(
      manager,
      `DELETE FROM media.training_locks WHERE model_id = $1 AND user_id = $2 RETURNING uploaded_image_id`,
      [modelId, userId],
    );
    await deleteObjectsQuietly(this.storage, [trainingArchiveKey(userId, modelId)], this.logger);
    return { released: released.length };
  }

  private async lockedAmong(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const locks = await this.dataSource
      .getRepository(TrainingLock)
      .find({ select: { uploadedImageId: true }, where: { uploadedImageId: In(ids) } });
    return new Set(locks.map((lock) => lock.uploadedImageId));
  }
}
