import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';

export interface ZipFileEntry {
  name: string;
  /** 0: stored as it is. */
  compressionMethod: number;
  data: Buffer;
}

/**
 * The files of a zip, in order, read through its central directory by yauzl as unzip reads
 * them, each file's bytes checked against its CRC-32 (yauzl leaves that to its caller).
 */
export async function zipEntries(zip: Buffer): Promise<ZipFileEntry[]> {
  const archive = await yauzl.fromBufferPromise(zip, { lazyEntries: true, strictFileNames: true });
  const entries: ZipFileEntry[] = [];
  await new Promise<void>((resolve, reject) => {
    archive.on('error', reject);
    archive.on('end', resolve);
    archive.on('entry', (entry: yauzl.Entry) => {
      archive
        .openReadStreamPromise(entry)
        .then(async (stream) => {
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          const data = Buffer.concat(chunks);
          if (crc32(data) >>> 0 !== entry.crc32) throw new Error(`${entry.fileName} fails its CRC-32`);
          entries.push({ name: entry.fileName, compressionMethod: entry.compressionMethod, data });
          archive.readEntry();
        })
        .catch(reject);
    });
    archive.readEntry();
  });
  return entries;
}
