import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable, Transform, type TransformCallback, pipeline } from 'node:stream';
import {
  type ListedObject,
  type ObjectInfo,
  ObjectNotFoundError,
  type ObjectStorage,
  type PutOptions,
  type StoredObject,
  assertValidKey,
} from './object-storage.js';

export interface S3ObjectStorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, s3rver, R2...); unset for AWS. */
  endpoint?: string;
  /** Unset: the SDK's default chain (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket` in the path instead of the host name; defaults to true when `endpoint` is set. */
  forcePathStyle?: boolean;
  /** Keys per ListObjectsV2 page (S3 caps it at 1000). */
  listPageSize?: number;
}

/** S3 accepts at most this many keys in one DeleteObjects request. */
const DELETE_BATCH = 1000;
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** The storage port over an S3 bucket (AWS, MinIO, or any S3-compatible server). */
export class S3ObjectStorage implements ObjectStorage {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly listPageSize: number;

  constructor(options: S3ObjectStorageOptions) {
    this.bucket = options.bucket;
    this.listPageSize = options.listPageSize ?? 1000;
    if ((options.accessKeyId === undefined) !== (options.secretAccessKey === undefined)) {
      throw new Error('S3 storage needs both an access key id and a secret access key, or neither');
    }
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      // Self-hosted servers (MinIO, s3rver) rarely resolve bucket host names; AWS accepts both.
      forcePathStyle: options.forcePathStyle ?? options.endpoint !== undefined,
      credentials:
        options.accessKeyId !== undefined && options.secretAccessKey !== undefined
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // The SDK's default (WHEN_SUPPORTED) sends streamed bodies aws-chunked with a trailing
      // CRC32; S3-compatible servers that do not decode that framing (s3rver) store the framing
      // as the object's bytes without an error, so checksums are sent only where S3 demands them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    assertValidKey(key);
    const command = (payload: Buffer | Readable, length: number) =>
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: payload,
        ContentType: options.contentType,
        ContentLength: length,
      });
    if (Buffer.isBuffer(body)) {
      await this.client.send(command(body, body.length));
      return;
    }
    // PutObject needs the length up front; a multipart upload would not, but
    // @aws-sdk/lib-storage is not a dependency of this library.
    const { contentLength } = options;
    if (contentLength === undefined || !Number.isSafeInteger(contentLength) || contentLength < 0) {
      throw new Error(
        `S3 storage needs options.contentLength (a whole number of bytes) to store a stream under ${key}; ` +
          `got ${String(contentLength)}. Pass the length, or a Buffer.`,
      );
    }
    // The SDK pipes the body into the request without watching it: a source that fails, or
    // ends short of its declared length, would leave the request waiting for bytes that never
    // come. Aborting the request on any stream error makes the put fail instead.
    const abort = new AbortController();
    const payload = pipeline(body, new ExactLength(contentLength, key), (error) => {
      if (error) abort.abort(error);
    });
    try {
      await this.client.send(command(payload, contentLength), { abortSignal: abort.signal });
    } catch (error) {
      throw abort.signal.aborted ? abort.signal.reason : error;
    }
  }

  async get(key: string): Promise<StoredObject> {
    assertValidKey(key);
    try {
      const output = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(output.Body instanceof Readable)) throw new Error(`GetObject ${key} returned no readable body`);
      return {
        key,
        size: output.ContentLength ?? 0,
        contentType: output.ContentType ?? DEFAULT_CONTENT_TYPE,
        body: output.Body,
      };
    } catch (error) {
      if (isMissingObject(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    assertValidKey(key);
    try {
      const output = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: output.ContentLength ?? 0, contentType: output.ContentType ?? DEFAULT_CONTENT_TYPE };
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    // S3 answers 204 for a key that holds nothing.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    keys.forEach(assertValidKey);
    const unique = [...new Set(keys)];
    for (let start = 0; start < unique.length; start += DELETE_BATCH) {
      const batch = unique.slice(start, start + DELETE_BATCH);
      const output = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      // DeleteObjects answers 200 even when some keys could not be deleted.
      const failed = output.Errors ?? [];
      if (failed.length > 0) {
        const sample = failed
          .slice(0, 5)
          .map((entry) => `${entry.Key}: ${entry.Code} ${entry.Message}`)
          .join('; ');
        throw new Error(`S3 could not delete ${failed.length} of ${batch.length} objects (${sample})`);
      }
    }
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    const pages = paginateListObjectsV2(
      { client: this.client, pageSize: this.listPageSize },
      { Bucket: this.bucket, Prefix: prefix },
    );
    for await (const page of pages) {
      for (const entry of page.Contents ?? []) if (entry.Key) yield { key: entry.Key, size: entry.Size ?? 0 };
    }
  }

  async presignGet(key: string, expiresInSeconds: number): Promise<string> {
    assertValidKey(key);
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
    });
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  /** Closes the client's pooled connections. */
  destroy(): void {
    this.client.destroy();
  }
}

function isMissingObject(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  if (error.name === 'NoSuchKey' || error.name === 'NotFound') return true;
  // A missing bucket is a configuration error, not a missing object.
  return error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket';
}

/** Passes bytes through and fails when they do not add up to the declared length. */
class ExactLength extends Transform {
  private seen = 0;

  constructor(
    private readonly expected: number,
    private readonly key: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.expected) callback(this.mismatch('more'));
    else callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.seen < this.expected ? this.mismatch('fewer') : null);
  }

  private mismatch(what: 'more' | 'fewer'): Error {
    return new Error(
      `The stream for ${this.key} holds ${what} bytes than its declared contentLength of ${this.expected}`,
    );
  }
}
