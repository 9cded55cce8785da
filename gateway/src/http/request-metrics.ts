import { metricsRegistry } from '@likeness/nest-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Histogram } from 'prom-client';

/** What a request that matched no route is counted under: its path is the client's to choose. */
export const UNMATCHED_ROUTE = 'unmatched';

export const httpMetrics = {
  duration: new Histogram({
    name: 'likeness_http_request_seconds',
    help: 'Time from a request arriving to its answer being sent, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [metricsRegistry],
  }),
};

/**
 * Counts and times every answer by its route's template (`/api/avatars/:id`), never its path,
 * so an id in the URL or a scan of random paths cannot grow the number of series.
 */
export function registerRequestMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    httpMetrics.duration.observe(
      { method: request.method, route: routeTemplate(request), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

function routeTemplate(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}
