import { type HttpRoute, httpRoutes } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JSON_ONLY, sendError } from './http-errors.js';

export const MULTIPART_ONLY = 'Send the images as multipart/form-data, in fields named "selfies".';

/** A contract path in Fastify's spelling: `/api/avatars/{id}` → `/api/avatars/:id`. */
export const fastifyPathOf = (path: string) => path.replace(/\{([A-Za-z]+)\}/g, ':$1');

/**
 * Refuses a request body of another type than its route takes, before it is read: JSON on
 * every route but the upload, which takes multipart/form-data only. Fastify and Nest would
 * otherwise parse text and form-encoded bodies too (a form another site can post).
 * Webhooks are JSON, kept raw for their signatures.
 */
export function registerBodyTypes(app: FastifyInstance, routes: readonly HttpRoute[] = httpRoutes): void {
  const byRoute = new Map(routes.map((route) => [`${route.method} ${fastifyPathOf(route.path)}`, route]));
  app.addHook('onRequest', async (request, reply) => {
    if (!hasBody(request)) return undefined;
    const route = byRoute.get(`${request.method} ${request.routeOptions.url}`);
    // Unknown addresses are answered 404 by their own handler.
    if (!route) return undefined;
    const multipart = route.bodyType === 'multipart';
    const expected = multipart ? 'multipart/form-data' : 'application/json';
    if (mediaTypeOf(request.headers['content-type']) === expected) return undefined;
    sendError(reply, request, new DomainError('COMMON.UNSUPPORTED_MEDIA_TYPE', multipart ? MULTIPART_ONLY : JSON_ONLY));
    return reply;
  });
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}
