import { DomainError } from '@likeness/nest-kit';
import { ObjectNotFoundError, type ObjectStorage, type StoredObject } from '@likeness/storage';
import type { Logger } from '@nestjs/common';

export const IMAGE_NOT_FOUND = 'That image was not found.';

/**
 * An object to stream; a missing one is the caller's 404. Its reader (Fastify's reply, or
 * readObject) hears the body's errors; the listener added here only keeps one that comes before
 * the reader attaches (a storage connection reset, say) from ending the process.
 */
export async function openObject(storage: ObjectStorage, key: string): Promise<StoredObject> {
  try {
    const object = await storage.get(key);
    object.body.on('error', ignoreUntilRead);
    return object;
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw new DomainError('COMMON.NOT_FOUND', IMAGE_NOT_FOUND);
    throw error;
  }
}

function ignoreUntilRead(): void {
  // The reader sees the same error through its own listener.
}

/**
 * An object's bytes in memory, for sharp. Past `maxBytes` (as announced, or as the bytes
 * arrive) it throws what `tooLarge` makes instead of reading on.
 */
export async function readObject(
  storage: ObjectStorage,
  key: string,
  limit: { maxBytes: number; tooLarge: () => Error },
): Promise<Buffer> {
  const object = await openObject(storage, key);
  const chunks: Buffer[] = [];
  let size = object.size;
  try {
    if (size > limit.maxBytes) throw limit.tooLarge();
    size = 0;
    for await (const chunk of object.body) {
      size += (chunk as Buffer).length;
      if (size > limit.maxBytes) throw limit.tooLarge();
      chunks.push(chunk as Buffer);
    }
  } finally {
    object.body.destroy();
  }
  return Buffer.concat(chunks);
}

/**
 * Deletes objects whose rows are gone (or were never written). A failure is logged, not
 * thrown: nothing serves an object without its row, so at worst it is an orphan.
 */
export async function deleteObjectsQuietly(storage: ObjectStorage, keys: readonly string[], logger: Logger) {
  if (keys.length === 0) return;
  try {
    await storage.deleteMany(keys);
  } catch (error) {
    logger.error(`Deleting ${keys.join(', ')} failed; they are left orphaned: ${(error as Error).message}`);
  }
}
