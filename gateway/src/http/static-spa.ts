import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { DomainError } from '@likeness/nest-kit';
import type { FastifyInstance } from 'fastify';
import { sendError } from './http-errors.js';

/** Vite puts every content-hashed file here; nothing else may be cached without asking again. */
const HASHED_ASSETS = '/assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA (single-machine mode): the build's brotli or gzip twin of a file when
 * the browser accepts one, hashed assets cached for a year, everything else (index.html, the
 * service worker, the manifest) revalidated on every use, and index.html for any other page
 * path so client-side routes load directly. Source maps are never served. Unknown API paths
 * stay JSON 404s.
 */
export async function registerStaticSpa(app: FastifyInstance, staticDir: string | undefined): Promise<void> {
  const hasSpa = staticDir !== undefined && existsSync(join(staticDir, 'index.html'));
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
      void reply.header('Cache-Control', 'no-cache').sendFile('index.html');
      return;
    }
    sendError(reply, request, new DomainError('COMMON.NOT_FOUND', 'There is nothing at this address.'));
  });
}

function isSourceMap(pathname: string): boolean {
  return pathname.toLowerCase().endsWith('.map');
}
