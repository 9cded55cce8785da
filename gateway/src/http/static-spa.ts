import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { DomainError } from '@likeness/nest-kit';
import type { FastifyInstance } from 'fastify';
import { sendError } from './http-errors.js';

/**
 * Serves the built SPA (single-machine mode): hashed assets cached for a year, index.html
 * never cached, and index.html for any other page path so client-side routes load directly.
 * Unknown API paths stay JSON 404s.
 */
export async function registerStaticSpa(app: FastifyInstance, staticDir: string | undefined): Promise<void> {
  const hasSpa = staticDir !== undefined && existsSync(join(staticDir, 'index.html'));
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      index: false,
      setHeaders: (reply, path) => {
        void reply.header(
          'Cache-Control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
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
