import { randomUUID } from 'node:crypto';
import {
  CORRELATION_HEADER,
  DomainError,
  type Logger,
  runWithCorrelation,
  sanitizeCorrelationId,
} from '@likeness/nest-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './http-errors.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Provider webhooks come from other sites by design and are verified by signature instead. */
const CSRF_EXEMPT = /^\/api\/webhooks\//;

const correlationIds = new WeakMap<FastifyRequest, string>();

/**
 * Carries the caller's correlation id (or a new one) through the request, its logs and its
 * RPCs. Each hook continues inside the id's context; preHandler enters it again because body
 * parsing resumes from the socket's own context.
 */
export function registerCorrelation(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const correlationId = sanitizeCorrelationId(request.headers[CORRELATION_HEADER]) ?? randomUUID();
    correlationIds.set(request, correlationId);
    void reply.header(CORRELATION_HEADER, correlationId);
    runWithCorrelation(correlationId, done);
  });
  app.addHook('preHandler', (request, _reply, done) => runWithCorrelation(correlationIds.get(request), done));
}

export function registerAccessLog(app: FastifyInstance, logger: Logger): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.url === '/healthz') return;
    logger.info(
      {
        correlationId: correlationIds.get(request),
        method: request.method,
        url: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
}

/**
 * Refuses state-changing API calls made by another site's page: the browser says where a
 * request comes from (Sec-Fetch-Site, Origin) and only our own origins may change state.
 * Clients that are not browsers send neither header and are not at risk.
 */
export function registerCsrfProtection(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!STATE_CHANGING.has(request.method) || !request.url.startsWith('/api/') || CSRF_EXEMPT.test(request.url))
      return;
    if (isSameOrigin(request, allowedOrigins)) return;
    sendError(
      reply,
      request,
      new DomainError('COMMON.CSRF_REJECTED', 'This request came from another website and was refused.'),
    );
    return reply;
  });
}

function isSameOrigin(request: FastifyRequest, allowedOrigins: readonly string[]): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const own = `${request.protocol}://${request.host}`;
    return origin === own || allowedOrigins.includes(origin);
  }
  if (fetchSite !== undefined) return fetchSite === 'same-origin' || fetchSite === 'none';
  return true;
}
