import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/** A file of a zip: its name, its size up front, and its bytes as a stream when their turn comes. */
export interface ZipEntry {
  name: string;
  size: number;
  open(): Promise<Readable>;
}

/** A zip being written: its length, known before it is read, and its bytes. */
export interface ZipArchive {
  size: number;
  stream: Readable;
}

/**
 * Every file stored as it is (JPEGs compress no further), with the DOS epoch as its time and
 * no extended timestamp: the same files always make the same bytes, of a length known up front.
 */
const ENTRY_OPTIONS = {
  compress: false,
  mtime: new Date(1980, 0, 1),
  mode: 0o100644,
  forceDosTimestamp: true,
} as const;

/**
 * A zip of these entries, streamed by yazl with one entry open at a time, so it can be
 * uploaded as a stream of known length. Names are checked first: no empty, absolute, `..` or
 * repeated name gets in. A file that fails to open or to read, or holds other than the bytes
 * announced, fails the stream with that error (yazl pipes each file without hearing its errors,
 * and reports the rest on the ZipFile, so both are listened to here); destroying the stream
 * closes the file being read.
 */
export async function zipArchive(entries: readonly ZipEntry[]): Promise<ZipArchive> {
  const names = new Set<string>();
  for (const { name } of entries) {
    if (!name || name.startsWith('/') || name.split('/').includes('..') || names.has(name)) {
      throw new Error(`Not a usable zip entry name: ${JSON.stringify(name)}`);
    }
    names.add(name);
  }

  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const fail = (error: Error) => output.destroy(error);
  zip.on('error', fail);
  // The reader hears the same error; this keeps one that comes before it attaches (while the
  // caller still decides whether to upload at all) from ending the process.
  output.on('error', heardByTheReader);
  const open = new Set<Readable>();
  output.once('close', () => {
    for (const file of open) file.destroy();
  });
  for (const entry of entries) {
    zip.addReadStreamLazy(entry.name, { ...ENTRY_OPTIONS, size: entry.size }, (done) => {
      entry.open().then(
        (file) => {
          file.on('error', fail);
          open.add(file);
          file.once('close', () => open.delete(file));
          // The archive failed or was abandoned while this file was being opened.
          if (output.destroyed) file.destroy();
          else done(null, file);
        },
        (error: unknown) => done(error, null as never),
      );
    });
  }
  // Every entry is stored with its size given, so yazl knows the total at once (-1 otherwise).
  // (@types/yazl leaves out the callback's argument.)
  const end = zip.end.bind(zip) as (options: undefined, totalSize: (size: number) => void) => void;
  const size = await new Promise<number>((resolve) => end(undefined, resolve));
  if (size < 0) throw new Error('The zip length could not be known up front');
  return { size, stream: output };
}

function heardByTheReader(): void {
  // See zipArchive.
}
