import type { z } from 'zod';
import { AuthRpc, BillingRpc, GenerationRpc, MediaRpc, TrainingRpc, httpRoutes } from './index.js';
import { MAX_STORED_INTEGER } from './ids.js';

interface Def {
  type: string;
  [property: string]: unknown;
}
const defOf = (schema: unknown) => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def) =>
  ((def['checks'] as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? []).map((check) => check._zod.def);

/** The paths of the integers a schema takes that have no bounds a PostgreSQL `integer` holds. */
function unboundedIntegers(schema: unknown, path: string): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'number': {
      const checks = checksOf(def);
      const integer = def['format'] === 'safeint' || checks.some((check) => check['check'] === 'number_format');
      const upper = checks.find((check) => check['check'] === 'less_than')?.['value'] as number | undefined;
      const lower = checks.find((check) => check['check'] === 'greater_than')?.['value'] as number | undefined;
      // Signed amounts (a credit adjustment's delta) may go below zero, as far as `integer` does.
      const fits =
        upper !== undefined && upper <= MAX_STORED_INTEGER && lower !== undefined && lower >= -MAX_STORED_INTEGER;
      return integer && !fits ? [path] : [];
    }
    case 'object':
      return Object.entries(def['shape'] as Record<string, unknown>).flatMap(([name, value]) =>
        unboundedIntegers(value, `${path}.${name}`),
      );
    case 'array':
      return unboundedIntegers(def['element'], `${path}[]`);
    case 'record':
      return unboundedIntegers(def['valueType'], `${path}{}`);
    case 'union':
      return (def['options'] as unknown[]).flatMap((option) => unboundedIntegers(option, path));
    case 'pipe':
      return [...unboundedIntegers(def['in'], path), ...unboundedIntegers(def['out'], path)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return unboundedIntegers(def['innerType'], path);
    default:
      return [];
  }
}

describe('integers in requests', () => {
  const rpcs = [AuthRpc, BillingRpc, GenerationRpc, MediaRpc, TrainingRpc].flatMap((namespace) =>
    Object.values(namespace as Record<string, { subject?: string; request?: z.ZodType }>).filter(
      (value) => typeof value?.subject === 'string' && value.request !== undefined,
    ),
  );

  it('should bound every integer an RPC request carries to what PostgreSQL stores', () => {
    expect(rpcs.length).toBeGreaterThan(20);
    expect(rpcs.flatMap((rpc) => unboundedIntegers(rpc.request, rpc.subject!))).toEqual([]);
  });

  it("should bound every integer of a route's body, query and path", () => {
    const parts = httpRoutes.flatMap((route) =>
      [route.body, route.query, route.params].map((schema) => [`${route.method} ${route.path}`, schema] as const),
    );
    expect(parts.flatMap(([name, schema]) => (schema ? unboundedIntegers(schema, name) : []))).toEqual([]);
  });
});
