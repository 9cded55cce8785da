import { fileRoute, sharedAvatarRoute } from '@likeness/contracts';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../http/http-errors.js';
import type { MediaHttpClient } from './media-http.client.js';

const prefixOf = (path: string) => path.slice(0, path.indexOf('{'));

/**
 * Image bytes by capability: a signed file URL (as listed to its owner) or an avatar's share
 * link. No session is needed (an <img> or a shared link carries none); media checks the
 * signature or the token. Plain Fastify routes, since the key spans several path segments.
 */
export function registerMediaFileRoutes(fastify: FastifyInstance, media: MediaHttpClient): void {
  const routes = [
    [prefixOf(fileRoute.path), '/internal/files/'],
    [prefixOf(sharedAvatarRoute.path), '/internal/shared/avatars/'],
  ] as const;
  for (const [publicPrefix, internalPrefix] of routes) {
    fastify.get(`${publicPrefix}*`, async (request, reply) => {
      try {
        return await media.relay(
          { method: 'GET', path: internalPrefix + request.url.slice(publicPrefix.length) },
          reply,
        );
      } catch (error) {
        sendError(reply, request, error);
        return reply;
      }
    });
  }
}
