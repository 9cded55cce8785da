import { ErrorCodes, errorBodySchema, httpRoutes, type HttpRoute, isErrorCode } from '@likeness/contracts';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const GENERIC_ERRORS = ['COMMON.VALIDATION_FAILED', 'COMMON.SERVICE_UNAVAILABLE', 'COMMON.INTERNAL'] as const;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function errorResponses(route: HttpRoute): Record<string, unknown> {
  const codes = [
    ...new Set([
      ...route.errors,
      ...GENERIC_ERRORS,
      ...(route.auth ? ['AUTH.UNAUTHENTICATED'] : []),
      // A body of another type than the route takes (JSON, or multipart for the upload).
      ...(route.method === 'POST' ? ['COMMON.UNSUPPORTED_MEDIA_TYPE'] : []),
    ]),
  ];
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

function successStatusOf(route: HttpRoute): string {
  return route.created ? '201' : '200';
}

/** Path parameters (`{id}`) and the query string's fields. */
function parametersOf(route: HttpRoute): JsonSchema[] {
  const params = route.params ? schemaOf(route.params, 'input') : undefined;
  const paramSchemas = (params?.['properties'] ?? {}) as Record<string, JsonSchema>;
  const inPath = [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: (name && paramSchemas[name]) ?? { type: 'string' },
  }));
  const query = route.query ? schemaOf(route.query, 'input') : undefined;
  const properties = (query?.['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((query?.['required'] ?? []) as string[]);
  const inQuery = Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema,
  }));
  return [...inPath, ...inQuery];
}

function requestBodyOf(route: HttpRoute): JsonSchema {
  if (route.bodyType === 'multipart') {
    const files = { type: 'array', items: { type: 'string', format: 'binary' } };
    return {
      requestBody: {
        required: true,
        content: { 'multipart/form-data': { schema: { type: 'object', properties: { selfies: files } } } },
      },
    };
  }
  if (!route.body) return {};
  return {
    requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } },
  };
}

const BINARY_MEDIA_TYPES = { image: 'image/*', zip: 'application/zip' } as const;

function contentOf(route: HttpRoute): Record<string, unknown> {
  if (route.responseType === 'image' || route.responseType === 'zip') {
    return { [BINARY_MEDIA_TYPES[route.responseType]]: { schema: { type: 'string', format: 'binary' } } };
  }
  if (route.responseType === 'event-stream')
    return { 'text/event-stream': { schema: schemaOf(route.response, 'output') } };
  return { 'application/json': { schema: schemaOf(route.response, 'output') } };
}

/** The OpenAPI 3.1 document of the public API, generated from the contracts. */
export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of httpRoutes) {
    const operation: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      ...(route.auth ? { security: [{ sessionCookie: [] }] } : {}),
      ...(parametersOf(route).length ? { parameters: parametersOf(route) } : {}),
      ...requestBodyOf(route),
      responses: {
        [successStatusOf(route)]: {
          description: 'OK',
          content: contentOf(route),
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
