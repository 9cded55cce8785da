import { Readable } from 'node:stream';
import {
  AVATAR_PAGE_LIMITS,
  type AvatarsZipQuery,
  type ImageFormat,
  MAX_STORED_INTEGER,
  zipIdsOf,
} from '@likeness/contracts';
import { DomainError, queryRows } from '@likeness/nest-kit';
import type { ObjectStorage } from '@likeness/storage';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { downloadName } from '../formatter/image-formatter.service.js';
import { convertImage } from '../images/image-processor.js';
import { openObject, readObject } from '../storage/objects.js';
import { OBJECT_STORAGE } from '../storage/storage.providers.js';
import { type StreamedZipEntry, zipStream } from '../training/zip-writer.js';

export const NO_AVATARS_TO_ZIP = 'None of those avatars were found.';
export const ZIP_IN_PROGRESS = 'Your other ZIP download is still running. Please wait for it to finish and try again.';
export const ZIPS_BUSY = 'Downloads are busy right now. Please try again in a minute.';
/** ZIPs one media replica writes at once, all people together: each can keep a core converting. */
const MAX_ZIPS_PER_REPLICA = 4;
/** Stored avatars are re-encoded by us and far below this. */
const MAX_STORED_BYTES = 32 * 1024 * 1024;

const STORED_FORMATS: Record<string, ImageFormat> = { jpg: 'jpeg', jpeg: 'jpeg', png: 'png', webp: 'webp' };

interface ZippedAvatar {
  id: number;
  prompt_text: string;
  storage_key: string;
}

/**
 * GET /api/avatars/zip: the caller's avatars in one ZIP, written as it is downloaded. Each
 * image is read from storage (and converted, unless it is stored in the chosen format) only when
 * the one before has gone out, so a replica holds at most one image per ZIP whatever its length.
 * One ZIP at a time per person, and a few per replica.
 */
@Injectable()
export class AvatarsZipService {
  private readonly running = new Set<number>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {}

  async open(userId: number, query: AvatarsZipQuery): Promise<{ stream: Readable; filename: string }> {
    if (this.running.has(userId)) throw new DomainError('COMMON.RATE_LIMITED', ZIP_IN_PROGRESS);
    if (this.running.size >= MAX_ZIPS_PER_REPLICA) throw new DomainError('COMMON.RATE_LIMITED', ZIPS_BUSY);
    const avatars = await this.chosen(userId, zipIdsOf(query));
    if (avatars.length === 0) throw new DomainError('COMMON.NOT_FOUND', NO_AVATARS_TO_ZIP);
    // Taken only now (the look-up above may have waited), and checked again.
    if (this.running.has(userId)) throw new DomainError('COMMON.RATE_LIMITED', ZIP_IN_PROGRESS);
    this.running.add(userId);
    try {
      const stream = zipStream(avatars.flatMap((avatar) => this.entriesOf(avatar, query.format)));
      stream.once('close', () => this.running.delete(userId));
      return { stream, filename: `likeness-avatars-${avatars.length}.zip` };
    } catch (error) {
      this.running.delete(userId);
      throw error;
    }
  }

  /** The user's avatars among the ids (all of them, up to the cap, without), newest first. */
  private chosen(userId: number, ids: number[] | undefined): Promise<ZippedAvatar[]> {
    const byId = ids ? 'AND id = ANY($3::int[])' : '';
    return queryRows<ZippedAvatar>(
      this.dataSource.manager,
      `SELECT id, prompt_text, storage_key FROM media.avatars WHERE user_id = $1 ${byId}
       ORDER BY created_at DESC NULLS LAST, id DESC LIMIT $2`,
      [userId, AVATAR_PAGE_LIMITS.maxZip, ...(ids ? [ids.filter((id) => id <= MAX_STORED_INTEGER)] : [])],
    );
  }

  /** The image in the chosen format, and its prompt in a text file of the same name beside it. */
  private entriesOf(avatar: ZippedAvatar, format: ImageFormat): StreamedZipEntry[] {
    const image = downloadName('avatar', avatar.id, format);
    const prompt = Buffer.from(`${avatar.prompt_text}\n`, 'utf8');
    return [
      { name: image, open: () => this.imageIn(avatar.storage_key, format) },
      {
        name: image.replace(/\.[a-z]+$/, '.txt'),
        size: prompt.length,
        open: () => Promise.resolve(Readable.from([prompt])),
      },
    ];
  }

  private async imageIn(key: string, format: ImageFormat): Promise<Readable> {
    if (STORED_FORMATS[key.slice(key.lastIndexOf('.') + 1)] === format) {
      return (await openObject(this.storage, key)).body;
    }
    const stored = await readObject(this.storage, key, {
      maxBytes: MAX_STORED_BYTES,
      tooLarge: () => new Error(`Stored image ${key} is larger than any we store`),
    });
    return Readable.from([await convertImage(stored, format)]);
  }
}
