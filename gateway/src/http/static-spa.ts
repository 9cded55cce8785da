import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { DomainError } from '@likeness/nest-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { preferredEncoding } from './compress-json.js';
import { sendError } from './http-errors.js';
import { absoluteShareUrls } from './share-urls.js';

/** Vite puts every content-hashed file here; nothing else may be cached without asking again. */
const HASHED_ASSETS = '/assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The public pages the frontend's build wrote as HTML (frontend/build-tools/prerender.ts). */
const PAGES_DIR = 'pages';

/** Each prerendered page's file by its path: `pages/index.html` is `/`, `pages/about.html` is `/about`. */
function prerenderedPages(staticDir: string): Map<string, string> {
  const dir = join(staticDir, PAGES_DIR);
  if (!existsSync(dir)) return new Map();
  const files = readdirSync(dir).filter((file) => file.endsWith('.html'));
  return new Map(
    files.map((file) => {
      const name = basename(file, '.html');
      return [name === 'index' ? '/' : `/${name}`, `${PAGES_DIR}/${file}`];
    }),
  );
}

/** A page's HTML as served, made once at start: as it is, and its gzip and brotli twins. */
interface ServedPage {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** Each HTML file the SPA serves (index.html and the prerendered pages), its share links absolute on `origin`. */
function pagesForOrigin(staticDir: string, files: string[], origin: string): Map<string, ServedPage> {
  return new Map(
    files.map((file) => {
      const identity = Buffer.from(absoluteShareUrls(readFileSync(join(staticDir, file), 'utf8'), origin));
      return [file, { identity, gzip: gzipSync(identity, { level: 9 }), br: brotliCompressSync(identity) }];
    }),
  );
}

function sendPage(request: FastifyRequest, reply: FastifyReply, page: ServedPage): void {
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  void reply.header('Content-Type', 'text/html; charset=UTF-8').header('Vary', 'Accept-Encoding');
  if (encoding) void reply.header('Content-Encoding', encoding);
  void reply.send(encoding ? page[encoding] : page.identity);
}

export interface StaticSpaOptions {
  /**
   * The deployment's public origin (PUBLIC_URL): the pages' share links (`og:image`, ...) point
   * there, as crawlers need. Unset, the pages go out as built, those links relative.
   */
  publicUrl?: string;
}

/**
 * Serves the built SPA (single-machine mode): the build's brotli or gzip twin of a file when
 * the browser accepts one, hashed assets cached for a year, everything else (index.html, the
 * service worker, the manifest, the pages) revalidated on every use. A public page the build
 * prerendered is sent as its own HTML (drawn before any script runs); any other page path gets
 * index.html, so client-side routes load directly; with `publicUrl` those pages carry absolute
 * share links. Source maps are never served. Unknown API paths stay JSON 404s.
 */
export async function registerStaticSpa(
  app: FastifyInstance,
  staticDir: string | undefined,
  { publicUrl }: StaticSpaOptions = {},
): Promise<void> {
  const hasSpa = staticDir !== undefined && existsSync(join(staticDir, 'index.html'));
  const pages = hasSpa ? prerenderedPages(staticDir) : new Map<string, string>();
  const served =
    hasSpa && publicUrl
      ? pagesForOrigin(staticDir, ['index.html', ...pages.values()], new URL(publicUrl).origin)
      : undefined;
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      allowedPath: (pathname) => !isSourceMap(pathname),
      setHeaders: (reply, path) => {
        void reply.header('Cache-Control', path.includes(HASHED_ASSETS) ? IMMUTABLE : 'no-cache');
      },
    });
  }
  // Fastify prefers every specific route (the API, each static file) over this wildcard.
  app.get('/*', (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (hasSpa && !path.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(path)) {
      const file = pages.get(path) ?? 'index.html';
      void reply.header('Cache-Control', 'no-cache');
      const page = served?.get(file);
      if (page) sendPage(request, reply, page);
      else void reply.sendFile(file);
      return;
    }
    sendError(reply, request, new DomainError('COMMON.NOT_FOUND', 'There is nothing at this address.'));
  });
}

function isSourceMap(pathname: string): boolean {
  return pathname.toLowerCase().endsWith('.map');
}
