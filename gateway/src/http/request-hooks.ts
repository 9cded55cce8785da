import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  CORRELATION_HEADER,
  DomainError,
  currentCorrelationId,
  type Logger,
  runWithCorrelation,
  sanitizeCorrelationId,
} from '@likeness/nest-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './http-errors.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Provider webhooks come from other sites by design and are verified by signature instead. */
const CSRF_EXEMPT = /^\/api\/webhooks\//;

/** By Node's request: Fastify may answer one request through another request object (a not-found answer). */
const correlationIds = new WeakMap<IncomingMessage, string>();

/**
 * Carries the caller's correlation id (or a new one) through the request, its logs and its
 * RPCs. Each hook continues inside the id's context; preHandler enters it again because body
 * parsing resumes from the socket's own context.
 */
export function registerCorrelation(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const correlationId = sanitizeCorrelationId(request.headers[CORRELATION_HEADER]) ?? randomUUID();
    correlationIds.set(request.raw, correlationId);
    void reply.header(CORRELATION_HEADER, correlationId);
    runWithCorrelation(correlationId, done);
  });
  app.addHook('preHandler', (request, _reply, done) => runWithCorrelation(correlationIds.get(request.raw), done));
  // Again as the answer goes out: Nest's answer to a target the router cannot place (`*`) skips
  // the onRequest hooks; its handler still ran in a correlation context of its own (preHandler).
  app.addHook('onSend', (request, reply, payload, done) => {
    let correlationId = correlationIds.get(request.raw);
    if (!correlationId) {
      correlationId = currentCorrelationId() ?? randomUUID();
      correlationIds.set(request.raw, correlationId);
    }
    if (!reply.hasHeader(CORRELATION_HEADER)) void reply.header(CORRELATION_HEADER, correlationId);
    done(null, payload);
  });
}

export function registerAccessLog(app: FastifyInstance, logger: Logger): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.url === '/healthz') return;
    logger.info(
      {
        correlationId: correlationIds.get(request.raw),
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
 * Answers are not cached unless their route says otherwise: API answers carry a user's data.
 * Image routes keep the cache-control media gives them (private for signed URLs, briefly
 * public for share links); the SPA's files set their own.
 */
export function registerNoStoreByDefault(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

/** How long the rest of a body answered early may take to arrive before its connection is closed. */
export const UNREAD_BODY_LINGER_MS = 5_000;

/**
 * A request answered before its body arrived in full (refused by its declared length, its type
 * or a guard before the body was read; a body sent with a GET): Node reads and drops the rest,
 * so a client still sending gets its answer and keeps its connection, but only for so long. A
 * client that declares a body and never sends it would otherwise hold the connection, and the
 * gateway's shutdown, until Node's request timeout. Closing at once instead would reset a client
 * still sending, which can lose the answer it has not read yet.
 */
export function registerCloseUnreadBodies(app: FastifyInstance, lingerMs = UNREAD_BODY_LINGER_MS): void {
  app.addHook('onResponse', (request, _reply, done) => {
    const incoming = request.raw;
    if (!incoming.complete) {
      const { socket } = incoming;
      const timer = setTimeout(() => socket.destroy(), lingerMs).unref();
      incoming.once('end', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    }
    done();
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
