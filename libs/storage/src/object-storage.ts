import type { Readable } from 'node:stream';

/** What a stored object is, without its bytes. */
export interface ObjectInfo {
  key: string;
  size: number;
  contentType: string;
}

/** An entry of a listing: what the listing itself tells, with no request per object. */
export interface ListedObject {
  key: string;
  size: number;
}

export interface StoredObject extends ObjectInfo {
  body: Readable;
}

export interface PutOptions {
  contentType: string;
  /** Required by S3 for a streamed body; Buffers know their own length. */
  contentLength?: number;
}

/** Raised by `get` for a key that holds nothing. */
export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No object is stored under ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/**
 * The storage port: one bucket of immutable objects addressed by key. Keys are chosen by the
 * caller (random, grouped per user: `users/<id>/...`); adapters never interpret them beyond
 * refusing ones that could escape the bucket.
 */
export interface ObjectStorage {
  /** `s3` or `local`, for logs and health. */
  readonly kind: string;
  put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void>;
  /** @throws ObjectNotFoundError */
  get(key: string): Promise<StoredObject>;
  head(key: string): Promise<ObjectInfo | undefined>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  deleteMany(keys: readonly string[]): Promise<void>;
  list(prefix: string): AsyncIterable<ListedObject>;
  /**
   * A URL that reads the object without credentials until it expires, for a party outside the
   * system (an inference provider fetching training images). Undefined when the adapter has no
   * such URL of its own (local files).
   */
  presignGet(key: string, expiresInSeconds: number): Promise<string | undefined>;
  /** Throws when the storage cannot be reached. */
  check(): Promise<void>;
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._\-/]{0,1023}$/;

/** Refuses keys that are empty, absolute, or could climb out of the bucket or root directory. */
export function assertValidKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`Invalid object key: ${JSON.stringify(key)}`);
  }
}
