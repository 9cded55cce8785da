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
 * uploaded as a stream of known length. See zipStream for what it checks and how it fails.
 */
export async function zipArchive(entries: readonly ZipEntry[]): Promise<ZipArchive> {
  const { zip, output } = writeZip(entries);
  // Every entry is stored with its size given, so yazl knows the total at once (-1 otherwise).
  // (@types/yazl leaves out the callback's argument.)
  const end = zip.end.bind(zip) as (options: undefined, totalSize: (size: number) => void) => void;
  const size = await new Promise<number>((resolve) => end(undefined, resolve));
  if (size < 0) throw new Error('The zip length could not be known up front');
  return { size, stream: output };
}

/** A file of a streamed zip, whose size need not be known before it is read. */
export type StreamedZipEntry = Omit<ZipEntry, 'size'> & { size?: number };

/**
 * A zip of these entries as a stream of unknown length, written as it is read: yazl opens one
 * entry when the one before is written, and reads it only as fast as the zip is read, so at most
 * one entry is held at a time. Names are checked first: no empty, absolute, `..` or repeated
 * name gets in. A file that fails to open or to read, or holds other than the bytes announced,
 * fails the stream with that error (yazl pipes each file without hearing its errors, and
 * reports the rest on the ZipFile, so both are listened to here); destroying the stream closes
 * the file being read and opens no other.
 */
export function zipStream(entries: readonly StreamedZipEntry[]): Readable {
  const { zip, output } = writeZip(entries);
  zip.end();
  return output;
}

function writeZip(entries: readonly StreamedZipEntry[]): { zip: ZipFile; output: Readable } {
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
  // caller still decides whether to read at all) from ending the process.
  output.on('error', heardByTheReader);
  const open = new Set<Readable>();
  output.once('close', () => {
    for (const file of open) file.destroy();
  });
  for (const entry of entries) {
    const options = entry.size === undefined ? ENTRY_OPTIONS : { ...ENTRY_OPTIONS, size: entry.size };
    zip.addReadStreamLazy(entry.name, options, (done) => {
      // The archive failed or was abandoned before this entry's turn: nothing more is opened.
      if (output.destroyed) return done(new Error('The zip was closed'), null as never);
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
  return { zip, output };
}

function heardByTheReader(): void {
  // See writeZip.
}
