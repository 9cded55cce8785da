import { randomUUID } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import {
  type FileHandle,
  access,
  mkdir,
  open,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type ListedObject,
  type ObjectInfo,
  ObjectNotFoundError,
  type ObjectStorage,
  type PutOptions,
  type StoredObject,
  assertValidKey,
} from './object-storage.js';

const META_SUFFIX = '.meta.json';
/** Writes in progress; no key can name it, since a key starts with a letter or digit. */
const TEMP_DIR = '.tmp';

/**
 * Objects as files under one directory (the single-machine mode). A write goes to a temporary
 * file first and is renamed into place, so a reader never sees half an object; the content type
 * sits beside it in `<key>.meta.json`. Unlike S3, a key cannot be both an object and a folder
 * of other objects (`a` and `a/b`).
 */
export class LocalObjectStorage implements ObjectStorage {
  readonly kind = 'local';

  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertValidKey(key);
    if (key.endsWith(META_SUFFIX)) throw new Error(`Invalid object key: ${JSON.stringify(key)}`);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    const path = this.pathOf(key);
    const temporaryDir = join(this.root, TEMP_DIR);
    await mkdir(temporaryDir, { recursive: true });
    const temporary = join(temporaryDir, randomUUID());
    const data = `${temporary}.data`;
    const meta = `${temporary}.meta`;
    try {
      if (Buffer.isBuffer(body)) {
        await writeFile(data, body);
      } else {
        await pipeline(body, createWriteStream(data));
        // The S3 adapter refuses a stream that does not match its declared length; so does this one.
        const { size } = await stat(data);
        if (options.contentLength !== undefined && size !== options.contentLength) {
          throw new Error(
            `The stream for ${key} held ${size} bytes, not its declared contentLength of ${options.contentLength}`,
          );
        }
      }
      await writeFile(meta, JSON.stringify({ contentType: options.contentType }));
      await mkdir(dirname(path), { recursive: true });
      // The content type first: a new object becomes visible only with the data's rename.
      await rename(meta, `${path}${META_SUFFIX}`);
      await rename(data, path);
    } finally {
      await Promise.all([rm(data, { force: true }), rm(meta, { force: true })]);
    }
  }

  async get(key: string): Promise<StoredObject> {
    const path = this.pathOf(key);
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
    // Size and bytes come from the one open file, even if the key is replaced or deleted meanwhile.
    try {
      const stats = await handle.stat();
      const meta = stats.isFile() ? await readMeta(path) : undefined;
      // No content type beside it: the object is being deleted (the data went first).
      if (!meta) throw new ObjectNotFoundError(key);
      return { key, size: stats.size, contentType: meta.contentType, body: handle.createReadStream() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    const path = this.pathOf(key);
    try {
      const [stats, meta] = await Promise.all([stat(path), readMeta(path)]);
      if (!stats.isFile() || !meta) return undefined;
      return { key, size: stats.size, contentType: meta.contentType };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await removeFile(path);
    await removeFile(`${path}${META_SUFFIX}`);
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    keys.forEach((key) => this.pathOf(key));
    await Promise.all(keys.map((key) => this.delete(key)));
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    // Walk only the folder the prefix names; if that is no valid key, no key can start with it.
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1).replace(/\/$/, '');
    if (folder !== '' && !isValidKey(folder)) return;
    const start = folder === '' ? this.root : join(this.root, ...folder.split('/'));
    for await (const path of walk(start, join(this.root, TEMP_DIR))) {
      const key = relative(this.root, path).split(sep).join('/');
      // Files that name no valid key were not put here; they are no objects.
      if (!key.startsWith(prefix) || key.endsWith(META_SUFFIX) || !isValidKey(key)) continue;
      const info = await this.head(key);
      if (info) yield { key, size: info.size };
    }
  }

  async presignGet(): Promise<undefined> {
    return undefined;
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.R_OK | constants.W_OK);
  }
}

function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

/** Nothing stored there: no such file, or a path through a file or to a folder. */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (isMissing(error)) return;
    // macOS answers EPERM for unlinking a folder, which holds no object either.
    if ((error as NodeJS.ErrnoException).code === 'EPERM' && (await stat(path)).isDirectory()) return;
    throw error;
  }
}

/**
 * An object's content type, or undefined when it has none: a put writes it before the data, a
 * delete removes it after the data, so data without it is an object half deleted.
 */
async function readMeta(path: string): Promise<{ contentType: string } | undefined> {
  let text: string;
  try {
    text = await readFile(`${path}${META_SUFFIX}`, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  return JSON.parse(text) as { contentType: string };
}

async function* walk(directory: string, skip: string): AsyncIterable<string> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (path === skip) continue;
    if (entry.isDirectory()) yield* walk(path, skip);
    else if (entry.isFile()) yield path;
  }
}
