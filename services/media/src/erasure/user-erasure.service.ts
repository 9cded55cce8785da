import { purgeUserObjects } from '@likeness/contracts';
import { OutboxService, Periodic, queryRows } from '@likeness/nest-kit';
import type { ObjectStorage } from '@likeness/storage';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { OBJECT_STORAGE } from '../storage/storage.providers.js';
import { lockUserMedia } from './user-lock.js';

/** Objects listed and deleted per round (S3's DeleteObjects takes at most 1,000). */
const PURGE_BATCH = 500;
/** A purge not finished this long after the erasure is queued again by the safety net. */
const UNFINISHED_AFTER = '30 minutes';

/**
 * Erases a deleted user's media. First the rows, at once and in the event's transaction: every
 * signed URL and share link of theirs answers 404 from then on, since nothing is served without
 * its row. Then the objects, by a job (there may be thousands), in batches.
 */
@Injectable()
export class UserErasure {
  private readonly logger = new Logger(UserErasure.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly outbox: OutboxService,
  ) {}

  /** Deletes the user's rows, leaves a tombstone, and queues the purge of their objects. Idempotent. */
  async eraseRows(manager: EntityManager, userId: number): Promise<void> {
    await lockUserMedia(manager, userId);
    await manager.query(`INSERT INTO media.erased_users (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING`, [
      userId,
    ]);
    // The locks first: they keep a selfie from being deleted while a training uses it.
    await manager.query(`DELETE FROM media.training_locks WHERE user_id = $1`, [userId]);
    const selfies = await queryRows(manager, `DELETE FROM media.uploaded_images WHERE user_id = $1 RETURNING id`, [
      userId,
    ]);
    const avatars = await queryRows(manager, `DELETE FROM media.avatars WHERE user_id = $1 RETURNING id`, [userId]);
    await this.outbox.enqueue(manager, purgeUserObjects, { userId });
    this.logger.log(
      `Erased the media of deleted user ${userId}: ${selfies.length} selfie(s), ${avatars.length} avatar(s); purging their objects`,
    );
  }

  /** Deletes every object under `users/<userId>/`, a batch at a time, and records that it is done. */
  async purgeObjects(userId: number, signal?: AbortSignal): Promise<number> {
    const prefix = `users/${userId}/`;
    let deleted = 0;
    for (;;) {
      signal?.throwIfAborted();
      const batch: string[] = [];
      for await (const object of this.storage.list(prefix)) {
        batch.push(object.key);
        if (batch.length === PURGE_BATCH) break;
      }
      if (batch.length === 0) break;
      await this.storage.deleteMany(batch);
      deleted += batch.length;
    }
    await this.dataSource.query(
      `UPDATE media.erased_users SET objects_purged_at = now() WHERE user_id = $1 AND objects_purged_at IS NULL`,
      [userId],
    );
    this.logger.log(`Purged ${deleted} object(s) of deleted user ${userId}`);
    return deleted;
  }

  /** The last attempt failed: said loudly; the safety net queues it again later. */
  async purgeFailed(userId: number, error: unknown): Promise<void> {
    this.logger.error(
      `Purging the objects of deleted user ${userId} failed; retried later: ${(error as Error).message}`,
    );
  }

  /**
   * The safety net: purges still unfinished long after their erasure (the job was given up, or
   * outlived the queue's retention) are queued again.
   */
  @Periodic({ everyMs: 10 * 60_000, lock: 'media.unfinished-purges' })
  async requeueUnfinishedPurges(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const unfinished = await queryRows<{ user_id: number }>(
        manager,
        `SELECT user_id FROM media.erased_users
         WHERE objects_purged_at IS NULL AND erased_at < now() - interval '${UNFINISHED_AFTER}'
         ORDER BY erased_at LIMIT 100`,
        [],
      );
      for (const { user_id: userId } of unfinished) await this.outbox.enqueue(manager, purgeUserObjects, { userId });
      if (unfinished.length > 0) this.logger.warn(`Queued ${unfinished.length} unfinished purge(s) again`);
      return unfinished.length;
    });
  }
}
