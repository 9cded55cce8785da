import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { zipEntries } from '../../test/zip-entries.js';
import { type ZipEntry, zipArchive } from './zip-writer.js';

async function zipOf(entries: ZipEntry[]): Promise<{ size: number; zip: Buffer }> {
  const archive = await zipArchive(entries);
  const parts: Buffer[] = [];
  for await (const part of archive.stream) parts.push(part as Buffer);
  return { size: archive.size, zip: Buffer.concat(parts) };
}

const entry = (name: string, data: Buffer): ZipEntry & { data: Buffer } => ({
  name,
  size: data.length,
  data,
  open: async () => Readable.from([data]),
});

function hasUnzip(): boolean {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe(zipArchive.name, () => {
  const files = [
    entry('selfie-01.jpg', randomBytes(70_000)),
    entry('selfie-02.jpg', randomBytes(1)),
    entry('selfie-03.jpg', Buffer.alloc(0)),
    entry('notes/ünïcode.txt', Buffer.from('hello zip\n')),
  ];

  it('should be exactly as long as it says, before it is read', async () => {
    const { size, zip } = await zipOf(files);
    expect(zip.length).toBe(size);
  });

  it('should store every file unchanged, findable through the central directory', async () => {
    const read = await zipEntries((await zipOf(files)).zip);
    expect(read.map((file) => file.name)).toEqual(files.map((file) => file.name));
    for (const [index, file] of read.entries()) {
      expect(file.compressionMethod).toBe(0);
      expect(file.data).toEqual(files[index]!.data);
    }
  });

  it('should open each file when its turn comes, after the one before was read', async () => {
    let open = 0;
    let most = 0;
    const counted = files.map((file) => ({
      ...file,
      open: async () => {
        open += 1;
        most = Math.max(most, open);
        const stream = Readable.from([file.data]);
        stream.once('end', () => (open -= 1));
        return stream;
      },
    }));
    await zipOf(counted);
    expect(most).toBe(1);
  });

  it('should make the same bytes for the same files', async () => {
    expect((await zipOf(files)).zip.equals((await zipOf(files)).zip)).toBe(true);
  });

  it('should make an empty archive of no files', async () => {
    const { size, zip } = await zipOf([]);
    expect([size, zip.length]).toEqual([22, 22]);
    expect(await zipEntries(zip)).toEqual([]);
  });

  it('should refuse a file whose bytes do not match its announced size, and unsafe or repeated names', async () => {
    await expect(
      zipOf([{ name: 'a.jpg', size: 5, open: async () => Readable.from([Buffer.alloc(4)]) }]),
    ).rejects.toThrow(/unexpected number of bytes/);
    await expect(zipOf([entry('../escape.jpg', Buffer.alloc(1))])).rejects.toThrow(/usable/);
    await expect(zipOf([entry('/etc/passwd', Buffer.alloc(1))])).rejects.toThrow(/usable/);
    await expect(zipOf([entry('', Buffer.alloc(1))])).rejects.toThrow(/usable/);
    await expect(zipOf([entry('a.jpg', Buffer.alloc(1)), entry('a.jpg', Buffer.alloc(1))])).rejects.toThrow(/usable/);
  });

  it('should fail, not hang or crash, when a file cannot be opened or breaks off while read', async () => {
    const cannotOpen = { name: 'b.jpg', size: 3, open: () => Promise.reject(new Error('storage is down')) };
    await expect(zipOf([files[0]!, cannotOpen])).rejects.toThrow('storage is down');

    let reading: Readable | undefined;
    const breaksOff = {
      name: 'c.jpg',
      size: 1_000,
      open: async () =>
        (reading = new Readable({
          read() {
            this.push(Buffer.alloc(10));
            this.destroy(new Error('connection reset'));
          },
        })),
    };
    await expect(zipOf([breaksOff, files[1]!])).rejects.toThrow('connection reset');
    expect(reading?.destroyed).toBe(true);
  });

  it('should close the file being read when the archive is abandoned', async () => {
    let reading: Readable | undefined;
    const endless = {
      name: 'd.jpg',
      size: 1_000_000,
      open: async () => (reading = new Readable({ read() {} })),
    };
    const archive = await zipArchive([endless]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reading?.destroyed).toBe(false);
    archive.stream.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reading?.destroyed).toBe(true);
  });

  (hasUnzip() ? it : it.skip)('should be read back intact by Info-ZIP unzip', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'likeness-zip-'));
    try {
      const path = join(dir, 'training.zip');
      writeFileSync(path, (await zipOf(files)).zip);
      const test = execFileSync('unzip', ['-t', path], { encoding: 'utf8' });
      expect(test).toContain('No errors detected');
      const listing = execFileSync('unzip', ['-Z1', path], { encoding: 'latin1' }).trim().split('\n');
      // (unzip prints non-ASCII names however its build and locale like; yauzl checks those above.)
      expect(listing.slice(0, 3)).toEqual(files.slice(0, 3).map((file) => file.name));
      expect(listing).toHaveLength(files.length);
      expect(execFileSync('unzip', ['-p', path, 'selfie-01.jpg']).equals(files[0]!.data)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
