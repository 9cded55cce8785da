import { crc32 } from 'node:zlib';

/** A file of a zip: its name, its size up front, and its bytes when their turn comes. */
export interface ZipEntry {
  name: string;
  size: number;
  read(): Promise<Buffer>;
}

const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const END_OF_CENTRAL_DIRECTORY = 22;
/** Classic zip (no zip64): sizes and offsets are 32-bit, the entry count 16-bit. */
const MAX_BYTES = 0xffff_ffff;
const MAX_ENTRIES = 0xffff;
/** 1980-01-01 00:00, the DOS epoch: the same files always make the same bytes. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
/** Version 1.0: a stored (uncompressed) file needs nothing newer. */
const VERSION = 10;
/** Language encoding flag: names are UTF-8. */
const UTF8_NAMES = 0x0800;

/** The byte length of the zip of these entries, known before any of them is read. */
export function zipSize(entries: readonly Pick<ZipEntry, 'name' | 'size'>[]): number {
  return (
    entries.reduce(
      (total, entry) => total + LOCAL_HEADER + CENTRAL_HEADER + 2 * Buffer.byteLength(entry.name) + entry.size,
      0,
    ) + END_OF_CENTRAL_DIRECTORY
  );
}

/**
 * A zip archive with every file stored as it is (method 0, no compression: JPEGs are compressed
 * already), produced piece by piece with one file's bytes in memory at a time. Its length is
 * `zipSize(entries)`, so it can be uploaded as a stream of known length.
 */
export async function* zipStream(entries: readonly ZipEntry[]): AsyncGenerator<Buffer> {
  if (entries.length > MAX_ENTRIES) throw new Error(`A zip holds at most ${MAX_ENTRIES} files`);
  if (zipSize(entries) > MAX_BYTES) throw new Error('The zip would need zip64, which this writer does not write');
  const names = new Set<string>();
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    if (!entry.name || entry.name.startsWith('/') || entry.name.split('/').includes('..') || names.has(entry.name)) {
      throw new Error(`Not a usable zip entry name: ${JSON.stringify(entry.name)}`);
    }
    names.add(entry.name);
    const data = await entry.read();
    if (data.length !== entry.size) {
      throw new Error(`${entry.name} holds ${data.length} bytes, not the ${entry.size} announced`);
    }
    const name = Buffer.from(entry.name, 'utf8');
    const checksum = crc32(data) >>> 0;

    const local = Buffer.alloc(LOCAL_HEADER);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(data.length, 18); // compressed size
    local.writeUInt32LE(data.length, 22); // uncompressed size
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28); // extra field length
    yield Buffer.concat([local, name]);
    yield data;

    const header = Buffer.alloc(CENTRAL_HEADER);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(VERSION, 4); // made by
    header.writeUInt16LE(VERSION, 6); // needed
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt16LE(0, 10); // stored
    header.writeUInt16LE(DOS_TIME, 12);
    header.writeUInt16LE(DOS_DATE, 14);
    header.writeUInt32LE(checksum, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(name.length, 28);
    // extra length, comment length, disk number, internal and external attributes stay 0.
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += LOCAL_HEADER + name.length + data.length;
  }

  const directory = Buffer.concat(central);
  const end = Buffer.alloc(END_OF_CENTRAL_DIRECTORY);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8); // entries on this disk
  end.writeUInt16LE(entries.length, 10); // entries in all
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield Buffer.concat([directory, end]);
}
