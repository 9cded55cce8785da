import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text the gateway sends compressed; images and fonts are compressed formats already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt', '.xml']);

const encoders = [
  {
    extension: '.br',
    encode: (bytes: Buffer) =>
      promisify(brotliCompress)(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
  },
  { extension: '.gz', encode: (bytes: Buffer) => promisify(gzip)(bytes, { level: constants.Z_BEST_COMPRESSION }) },
];

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Writes the brotli and gzip twins of a file, each only when it is smaller than the file. */
async function precompress(file: string): Promise<void> {
  const bytes = await readFile(file);
  for (const { extension, encode } of encoders) {
    const encoded = await encode(bytes);
    if (encoded.length < bytes.length) await writeFile(`${file}${extension}`, encoded);
  }
}

/** Moves a source map out of the served folder: kept for debugging, never published. */
async function moveOut(file: string, outDir: string, mapsDir: string): Promise<void> {
  const target = join(mapsDir, relative(outDir, file));
  await mkdir(dirname(target), { recursive: true });
  await rename(file, target);
}

/**
 * After the build (the service worker included), moves the source maps to `mapsDir` and writes
 * `.br` and `.gz` files beside every text asset for the gateway to serve by Accept-Encoding.
 */
export function precompressPlugin({ mapsDir }: { mapsDir: string }): Plugin {
  let outDir = '';
  return {
    name: 'likeness:precompress',
    // The client build's files only: the SSR build (dist-ssr) is never served.
    apply: (_config, { command, isSsrBuild }) => command === 'build' && !isSsrBuild,
    enforce: 'post',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      order: 'post',
      async handler() {
        const files = await filesUnder(outDir);
        await rm(mapsDir, { recursive: true, force: true });
        await Promise.all(files.filter((file) => file.endsWith('.map')).map((file) => moveOut(file, outDir, mapsDir)));
        await Promise.all(files.filter((file) => COMPRESSIBLE.has(extname(file))).map(precompress));
      },
    },
  };
}
