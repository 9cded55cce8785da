import { readFileSync } from 'node:fs';
import { httpRoutes } from '@likeness/contracts';
import { buildOpenApiDocument } from './openapi.js';
import { OPENAPI_FILE, renderOpenApiDocument } from './openapi-file.js';

describe(buildOpenApiDocument.name, () => {
  it('should match the checked-in docs/openapi.json (run `npm run openapi` after changing a contract)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(renderOpenApiDocument());
  });

  it('should document every route with its body, reply and errors', () => {
    const document = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
    };
    for (const route of httpRoutes) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation).toBeDefined();
      expect(Boolean(operation?.requestBody)).toBe(route.body !== undefined || route.bodyType === 'multipart');
      expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['400', '500', '503']));
    }
    const register = document.paths['/api/register']?.['post'];
    expect(Object.keys(register?.responses ?? {})).toEqual(expect.arrayContaining(['201', '409', '429', '403']));
    expect(Object.keys(document.paths['/api/user']?.['get']?.responses ?? {})).toContain('401');
  });
});
