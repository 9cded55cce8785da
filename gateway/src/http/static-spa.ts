import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { DomainError } from '@likeness/nest-kit';
import type { FastifyInstance } from 'fastify';
import { sendError } from './http-errors.js';

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

/**
 * Serves the built SPA (single-machine mode): the build's brotli or gzip twin of a file when
 * the browser accepts one, hashed assets cached for a year, everything else (index.html, the
 * service worker, the manifest, the pages) revalidated on every use. A public page the build
 * prerendered is sent as its own HTML (drawn before any script runs); any other page path gets
 * index.html, so client-side routes load directly. Source maps are never served. Unknown API
 * paths stay JSON 404s.
 */
export async function registerStaticSpa(app: FastifyInstance, staticDir: string | undefined): Promise<void> {
  const hasSpa = staticDir !== undefined && existsSync(join(staticDir, 'index.html'));
  const pages = hasSpa ? prerenderedPages(staticDir) : new Map<string, string>();
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
      void reply.header('Cache-Control', 'no-cache').sendFile(pages.get(path) ?? 'index.html');
      return;
    }
    sendError(reply, request, new DomainError('COMMON.NOT_FOUND', 'There is nothing at this address.'));
  });
}

function isSourceMap(pathname: string): boolean {
  return pathname.toLowerCase().endsWith('.map');
}
