import { ErrorCodes, errorBodySchema, httpRoutes, type HttpRoute, isErrorCode } from '@likeness/contracts';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const GENERIC_ERRORS = ['COMMON.VALIDATION_FAILED', 'COMMON.SERVICE_UNAVAILABLE', 'COMMON.INTERNAL'] as const;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function errorResponses(route: HttpRoute): Record<string, unknown> {
  const codes = [...new Set([...route.errors, ...GENERIC_ERRORS, ...(route.auth ? ['AUTH.UNAUTHENTICATED'] : [])])];
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    if (!isErrorCode(code)) throw new Error(`Route ${route.path} names an unknown error code: ${code}`);
    const status = ErrorCodes[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  if (route.method !== 'GET' && !route.auth) byStatus.set(403, ['COMMON.CSRF_REJECTED']);
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, statusCodes]) => [
        String(status),
        {
          description: statusCodes.join(', '),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        },
      ]),
  );
}

/** The OpenAPI 3.1 document of the public API, generated from the contracts. */
export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of httpRoutes) {
    const operation: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      ...(route.auth ? { security: [{ sessionCookie: [] }] } : {}),
      ...(route.body
        ? {
            requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } },
          }
        : {}),
      responses: {
        [route.method === 'POST' && route.path === '/api/register' ? '201' : '200']: {
          description: 'OK',
          content: { 'application/json': { schema: schemaOf(route.response, 'output') } },
        },
        ...errorResponses(route),
      },
    };
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Likeness API',
      version: '1.0.0',
      description:
        'The public HTTP API of Likeness. Sessions live in httpOnly cookies set by /api/register and /api/login; state-changing calls must come from the site itself (Origin checked).',
    },
    paths,
    components: {
      schemas: { ErrorBody: schemaOf(errorBodySchema, 'output') },
      securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'likeness_access' } },
    },
  };
}
