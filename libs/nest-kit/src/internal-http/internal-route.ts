import type { InternalHttpRoute, InternalJsonReply } from '@likeness/contracts';

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)(\+?)\}/g;

/**
 * An internal route's path template in Fastify's spelling: `{name}` → `:name`, `{name+}` → `*`
 * (Fastify allows one wildcard, at the end).
 */
export function fastifyRouteUrl(route: Pick<InternalHttpRoute, 'path'>): string {
  return route.path.replace(PLACEHOLDER, (_match, name: string, many: string) => (many ? '*' : `:${name}`));
}

/** Fastify's path parameters (`*` for the wildcard) under the names the route's template gives them. */
export function namedRouteParams(
  route: Pick<InternalHttpRoute, 'path'>,
  params: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const named: Record<string, string | undefined> = {};
  for (const [, name = '', many] of route.path.matchAll(PLACEHOLDER)) {
    named[name] = params[many ? '*' : name];
  }
  return named;
}

/**
 * A route's JSON reply checked against its contract. A reply that breaks it is our bug, never
 * the caller's: a plain Error, so it is logged and answered as an internal error.
 */
export function parseInternalReply<R extends InternalHttpRoute>(route: R, value: unknown): InternalJsonReply<R> {
  if (route.reply.type !== 'json') throw new Error(`${route.method} ${route.path} answers bytes, not JSON`);
  const parsed = route.reply.schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Reply of ${route.method} ${route.path} broke its contract: ${issues}`);
  }
  return parsed.data as InternalJsonReply<R>;
}
