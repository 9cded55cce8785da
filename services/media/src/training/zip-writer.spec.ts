import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { type ZipEntry, zipSize, zipStream } from './zip-writer.js';

async function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of zipStream(entries)) parts.push(part);
  return Buffer.concat(parts);
}

const entry = (name: string, data: Buffer): ZipEntry => ({ name, size: data.length, read: async () => data });

/** Reads a zip back through its central directory, as unzip does, checking each entry's CRC. */
function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  let at = zip.readUInt32LE(end + 16);
  expect(at + directorySize).toBe(end);
  const files = new Map<string, Buffer>();
  for (let index = 0; index < count; index += 1) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    expect(zip.readUInt16LE(at + 10)).toBe(0); // stored
    const checksum = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    expect(zip.readUInt32LE(offset)).toBe(0x04034b50);
    const localNameLength = zip.readUInt16LE(offset + 26);
    const dataStart = offset + 30 + localNameLength + zip.readUInt16LE(offset + 28);
    const data = zip.subarray(dataStart, dataStart + size);
    expect(crc32(data) >>> 0).toBe(checksum);
    files.set(name, data);
    at += 46 + nameLength;
  }
  return files;
}

function hasUnzip(): boolean {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('zipStream', () => {
  const files = [
    entry('selfie-01.jpg', randomBytes(70_000)),
    entry('selfie-02.jpg', randomBytes(1)),
    entry('selfie-03.jpg', Buffer.alloc(0)),
    entry('notes/ünïcode.txt', Buffer.from('hello zip\n')),
  ];

  it('should be exactly as long as zipSize says, before any file is read', async () => {
    const zip = await zipOf(files);
    expect(zip.length).toBe(zipSize(files));
  });

  it('should store every file unchanged, findable through the central directory', async () => {
    const read = readZip(await zipOf(files));
    expect([...read.keys()]).toEqual(files.map((file) => file.name));
    for (const file of files) expect(read.get(file.name)).toEqual(await file.read());
  });

  it('should make the same bytes for the same files', async () => {
    expect((await zipOf(files)).equals(await zipOf(files))).toBe(true);
  });

  it('should make an empty archive of no files', async () => {
    const zip = await zipOf([]);
    expect(zip.length).toBe(22);
    expect(readZip(zip).size).toBe(0);
  });

  it('should refuse a file whose bytes do not match its announced size, and unsafe or repeated names', async () => {
    await expect(zipOf([{ name: 'a.jpg', size: 5, read: async () => Buffer.alloc(4) }])).rejects.toThrow(
      /holds 4 bytes, not the 5 announced/,
    );
    await expect(zipOf([entry('../escape.jpg', Buffer.alloc(1))])).rejects.toThrow(/usable/);
    await expect(zipOf([entry('a.jpg', Buffer.alloc(1)), entry('a.jpg', Buffer.alloc(1))])).rejects.toThrow(/usable/);
  });

  (hasUnzip() ? it : it.skip)('should be read back intact by Info-ZIP unzip', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'likeness-zip-'));
    try {
      const path = join(dir, 'training.zip');
      writeFileSync(path, await zipOf(files));
      const test = execFileSync('unzip', ['-t', path], { encoding: 'utf8' });
      expect(test).toContain('No errors detected');
      const listing = execFileSync('unzip', ['-Z1', path], { encoding: 'latin1' }).trim().split('\n');
      // (unzip prints non-ASCII names however its build and locale like; the parser above checks those.)
      expect(listing.slice(0, 3)).toEqual(files.slice(0, 3).map((file) => file.name));
      expect(listing).toHaveLength(files.length);
      expect(execFileSync('unzip', ['-p', path, 'selfie-01.jpg']).equals(await files[0]!.read())).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
