import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { type ErrorCode, SELFIE_LIMITS, type UploadSelfiesResponse, uploadMessages } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import type { ObjectStorage } from '@likeness/storage';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import busboy from 'busboy';
import { DataSource } from 'typeorm';
import { assertNotErased, lockUserMedia } from '../erasure/user-lock.js';
import { ImageRejectedError, MAX_SIDE, encodeImage, inspectImage } from '../images/image-processor.js';
import { PixelBudget } from '../limits/pixel-budget.js';
import { deleteObjectsQuietly } from '../storage/objects.js';
import { OBJECT_STORAGE } from '../storage/storage.providers.js';
import { sanitizeFilename } from './filename.js';
import { SelfiesService } from './selfies.service.js';
import { UploadedImage } from './uploaded-image.entity.js';

/** The multipart field the SPA repeats once per file. */
export const SELFIES_FIELD = 'selfies';
/** What 20 files of 5 MB and their multipart framing can add up to (the gateway caps the same). */
export const MAX_UPLOAD_BYTES = SELFIE_LIMITS.maxPerUpload * SELFIE_LIMITS.maxFileBytes + 2 * 1024 * 1024;
const JPEG_QUALITY = 90;

/** Every refusal names the field, so the SPA can show it beside the picker. */
const refuse = (code: ErrorCode, message: string) => new DomainError(code, message, [{ path: SELFIES_FIELD, message }]);
const unreadableUpload = () => refuse('COMMON.VALIDATION_FAILED', 'The upload could not be read. Please try again.');
export const UPLOADING_A_LOT = "You're uploading a lot right now. Please wait a minute and try again.";

/** Past MAX_UPLOAD_BYTES the rest of the request is not read: its answer closes the connection. */
export class UploadTooLargeError extends DomainError {
  constructor() {
    const message = 'The upload is too large. Send at most 20 images of 5 MB each.';
    super('COMMON.PAYLOAD_TOO_LARGE', message, [{ path: SELFIES_FIELD, message }]);
  }
}

interface StoredSelfie {
  storageKey: string;
  thumbnailKey: string;
  originalFilename: string;
  byteSize: number;
  width: number;
  height: number;
  contentType: string;
}

/** What one upload has seen so far, while its request streams in. */
interface UploadState {
  remaining: number;
  files: number;
  tooManyAtOnce: boolean;
  /** Decoded pixels of the files so far, by their headers (SELFIE_LIMITS.maxPixelsPerUpload). */
  pixels: number;
  /** The first thing that went wrong: a DomainError to answer with, or an unexpected failure. */
  failure: unknown;
  stored: StoredSelfie[];
  /** Every key this upload has started writing, to delete them all if it fails. */
  written: string[];
}

/**
 * Stores 1-20 selfies from a multipart request, all or none. Files are read one at a time,
 * each at most 5 MB in memory (busboy holds the request back meanwhile), checked, re-encoded
 * and stored; the rows are inserted in one transaction at the end, under a per-user lock that
 * makes the 30-selfie limit hold against concurrent uploads. After the first failure the rest
 * of the request is read and discarded, so the client always gets its answer.
 */
@Injectable()
export class SelfieUploadService {
  private readonly logger = new Logger(SelfieUploadService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly selfies: SelfiesService,
    private readonly pixelBudget: PixelBudget,
  ) {}

  async upload(userId: number, request: IncomingMessage): Promise<UploadSelfiesResponse> {
    // Watched from the first moment: a sender that goes away while the count is read is noticed, not thrown.
    const requestEnded = finished(request).then(
      () => undefined,
      (error: unknown) => error,
    );
    const state: UploadState = {
      remaining: SELFIE_LIMITS.maxStored - (await this.countOf(userId)),
      files: 0,
      tooManyAtOnce: false,
      pixels: 0,
      failure: undefined,
      stored: [],
      written: [],
    };
    try {
      await this.receive(userId, request, requestEnded, state);
      const failure = this.verdict(state);
      if (failure) throw failure;
      const images = await this.record(userId, state.stored);
      return { uploadedFiles: images.map((image) => this.selfies.toView(image, false)) };
    } catch (error) {
      await deleteObjectsQuietly(this.storage, state.written, this.logger);
      throw error;
    }
  }

  /**
   * Reads the whole request, storing each acceptable file until something fails. Every stream
   * here (the request, the parser, each file) has its 'error' handled from the moment it exists:
   * a form cut short or a sender gone makes busboy destroy the file it was reading, and an
   * unheard 'error' would end the process, and every upload, gallery and training with it.
   */
  private async receive(
    userId: number,
    request: IncomingMessage,
    requestEnded: Promise<unknown>,
    state: UploadState,
  ): Promise<void> {
    if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
      state.failure = refuse('COMMON.VALIDATION_FAILED', 'Send the selfies as multipart/form-data.');
      return drain(request, requestEnded);
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        // Browsers send file names as raw UTF-8.
        defParamCharset: 'utf8',
        limits: {
          files: SELFIE_LIMITS.maxPerUpload,
          fileSize: SELFIE_LIMITS.maxFileBytes,
          fields: 10,
          fieldSize: 1024,
          parts: SELFIE_LIMITS.maxPerUpload + 10,
          headerPairs: 20,
        },
      });
    } catch {
      state.failure = unreadableUpload();
      return drain(request, requestEnded);
    }

    // One file at a time: the next file's stream is not read until this chain reaches it.
    let work = Promise.resolve();
    const fail = (error: unknown) => (state.failure ??= error);
    parser.on('file', (field, stream, info) => {
      // A file waiting its turn is destroyed with the parser's error when the form breaks off.
      stream.on('error', () => fail(unreadableUpload()));
      const name = sanitizeFilename(info.filename);
      if (field !== SELFIES_FIELD) {
        fail(refuse('COMMON.VALIDATION_FAILED', `Send images in the "${SELFIES_FIELD}" field.`));
        stream.resume();
        return;
      }
      state.files += 1;
      work = work.then(async () => {
        if (this.stopped(state)) {
          stream.resume();
          return;
        }
        try {
          const stored = await this.storeFile(userId, stream, name, state);
          if (stored) state.stored.push(stored);
        } catch (error) {
          stream.resume();
          fail(stream.errored ? unreadableUpload() : error);
        }
      });
    });
    parser.on('filesLimit', () => (state.tooManyAtOnce = true));
    parser.on('partsLimit', () => fail(refuse('MEDIA.TOO_MANY_FILES', uploadMessages.tooManyAtOnce)));
    parser.on('fieldsLimit', () => fail(unreadableUpload()));
    const parsed = new Promise<void>((done) => parser.once('close', done).once('error', () => done()));
    parser.on('error', () => {
      fail(unreadableUpload());
      request.unpipe(parser);
      // The rest is read and dropped, so the answer still reaches the sender (unless too much is coming).
      if (!(state.failure instanceof UploadTooLargeError)) request.resume();
    });

    const read = new Promise<void>((done) => {
      void requestEnded.then((error) => {
        // The sender went away: the parser would wait for the rest forever.
        if (error) parser.destroy(new Error('The upload was aborted'));
        done();
      });
      let received = 0;
      request.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received <= MAX_UPLOAD_BYTES || state.failure instanceof UploadTooLargeError) return;
        state.failure = new UploadTooLargeError();
        request.unpipe(parser);
        request.pause();
        parser.destroy(new Error('The upload is too large'));
        done();
      });
    });
    request.pipe(parser);
    await Promise.all([parsed, read]);
    // No file arrives after the parser closed: this is the whole chain.
    await work;
  }

  /** Once the upload is known to fail, files are no longer checked or stored. */
  private stopped(state: UploadState): boolean {
    return state.failure !== undefined || state.tooManyAtOnce || state.files > state.remaining;
  }

  /** How the whole upload ends; limits on the count come before anything about one file. */
  private verdict(state: UploadState): unknown {
    if (state.failure instanceof UploadTooLargeError) return state.failure;
    if (state.tooManyAtOnce) return refuse('MEDIA.TOO_MANY_FILES', uploadMessages.tooManyAtOnce);
    if (state.files > 0 && state.remaining <= 0) {
      return refuse('MEDIA.UPLOAD_LIMIT_REACHED', uploadMessages.limitReached);
    }
    if (state.files > state.remaining) {
      return refuse('MEDIA.TOO_MANY_FILES', uploadMessages.remaining(state.remaining));
    }
    if (state.failure) return state.failure;
    if (state.files === 0) return refuse('COMMON.VALIDATION_FAILED', uploadMessages.noFiles);
    return undefined;
  }

  /**
   * Reads one file (at most 5 MB), checks and re-encodes it, and stores the image and its
   * thumbnail, unless the upload failed meanwhile (then nothing is written, and undefined returned).
   */
  private async storeFile(
    userId: number,
    stream: Readable,
    name: string,
    state: UploadState,
  ): Promise<StoredSelfie | undefined> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    if ((stream as Readable & { truncated?: boolean }).truncated) {
      throw refuse('MEDIA.FILE_TOO_LARGE', uploadMessages.tooLarge(name));
    }
    const bytes = Buffer.concat(chunks);
    let encoded;
    try {
      // What the header says is weighed before a pixel is decoded.
      const { width, height } = await inspectImage(bytes, { maxPixels: SELFIE_LIMITS.maxPixels });
      if (Math.min(width, height) < SELFIE_LIMITS.minShortSide) {
        throw refuse('MEDIA.INVALID_IMAGE', uploadMessages.tooSmall(name));
      }
      state.pixels += width * height;
      if (state.pixels > SELFIE_LIMITS.maxPixelsPerUpload) {
        throw refuse('MEDIA.TOO_MANY_FILES', uploadMessages.tooManyPixelsInAll(name));
      }
      // The person's budget across uploads and replicas; what earlier files of this upload spent was spent.
      await this.pixelBudget.spend(userId, width * height, UPLOADING_A_LOT, [
        { path: SELFIES_FIELD, message: UPLOADING_A_LOT },
      ]);
      encoded = await encodeImage(bytes, {
        output: 'jpeg',
        quality: JPEG_QUALITY,
        maxSide: MAX_SIDE.selfie,
        maxPixels: SELFIE_LIMITS.maxPixels,
      });
    } catch (error) {
      if (error instanceof ImageRejectedError) throw refuse('MEDIA.INVALID_IMAGE', uploadMessages[error.reason](name));
      throw error;
    }
    if (this.stopped(state)) return undefined;
    const base = `users/${userId}/selfies/${randomUUID()}`;
    const storageKey = `${base}.jpg`;
    const thumbnailKey = `${base}.thumb.webp`;
    // Noted before writing, so a write that fails half-way is cleaned up too.
    state.written.push(storageKey, thumbnailKey);
    await this.storage.put(storageKey, encoded.image, { contentType: encoded.contentType });
    await this.storage.put(thumbnailKey, encoded.thumbnail, { contentType: 'image/webp' });
    return {
      storageKey,
      thumbnailKey,
      originalFilename: name,
      byteSize: encoded.image.length,
      width: encoded.width,
      height: encoded.height,
      contentType: encoded.contentType,
    };
  }

  /**
   * Inserts the rows, in upload order, if the person still has room for all of them. The
   * advisory lock serialises one person's uploads, so two at once cannot both take the last slots,
   * and an upload with the erasure of its account.
   */
  private record(userId: number, stored: StoredSelfie[]): Promise<UploadedImage[]> {
    return this.dataSource.transaction(async (manager) => {
      await lockUserMedia(manager, userId);
      await assertNotErased(manager, userId);
      const remaining = SELFIE_LIMITS.maxStored - (await manager.count(UploadedImage, { where: { userId } }));
      if (remaining <= 0) throw refuse('MEDIA.UPLOAD_LIMIT_REACHED', uploadMessages.limitReached);
      if (stored.length > remaining) throw refuse('MEDIA.TOO_MANY_FILES', uploadMessages.remaining(remaining));
      return manager.save(
        UploadedImage,
        stored.map((selfie) => manager.create(UploadedImage, { userId, ...selfie })),
      );
    });
  }

  private countOf(userId: number): Promise<number> {
    return this.dataSource.getRepository(UploadedImage).count({ where: { userId } });
  }
}

/** Reads and discards the rest of a request, so its sender sees the answer rather than a reset. */
async function drain(request: IncomingMessage, requestEnded: Promise<unknown>): Promise<void> {
  request.resume();
  await requestEnded;
}
