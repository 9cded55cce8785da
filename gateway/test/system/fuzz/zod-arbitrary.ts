import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Values a zod (v4) schema accepts, as a fast-check arbitrary, read from the schema's own
 * definition: so a new route's body, query or path parameters are covered without a line here.
 * Covers what the contracts use: objects, strings (lengths, patterns, formats), numbers
 * (integers, bounds), booleans, enums, literals, arrays, records, optionals, nullables, defaults,
 * unions and pipes. A refinement it cannot read (`.refine`) may make a value invalid now and then;
 * that is fine for a fuzzer, which wants mostly valid values to get past validation.
 */

/** Real values by field name (ids of rows that exist, a signed URL's parts), drawn as often as made-up ones. */
export type KnownValues = Readonly<Record<string, readonly unknown[]>>;

interface Def {
  type: string;
  [property: string]: unknown;
}

interface Check {
  check: string;
  [property: string]: unknown;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Check[] =>
  ((def['checks'] as { _zod: { def: Check } }[] | undefined) ?? []).map((check) => check._zod.def);

/** Where a string or array has no upper bound of its own: long enough to mean something. */
const OPEN_LENGTH = 40;

export function arbitraryOf(schema: z.ZodType, known: KnownValues = {}): fc.Arbitrary<unknown> {
  return walk(schema, known, undefined);
}

function walk(schema: unknown, known: KnownValues, field: string | undefined): fc.Arbitrary<unknown> {
  const made = refined(schema, fromDefinition(schema, known, field));
  const real = field === undefined ? undefined : known[field];
  return real?.length ? fc.oneof(made, fc.constantFrom(...real)) : made;
}

/**
 * A number or a string with a refinement (`.refine(delta => delta !== 0)`) that its definition
 * cannot show: the values made from its bounds, less those the refinement refuses.
 */
function refined(schema: unknown, made: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const custom = ['number', 'string'].includes(def.type) && checksOf(def).some((check) => check.check === 'custom');
  return custom ? made.filter((value) => (schema as z.ZodType).safeParse(value).success) : made;
}

/**
 * The one refinement the contracts share that a schema's definition cannot show: a
 * `confirmPassword` repeats the new password (`newPassword`, else `password`). Spoiled values
 * still break it; the made ones keep it, so they reach the handlers.
 */
function withConfirmation(value: Record<string, unknown>): Record<string, unknown> {
  if (!('confirmPassword' in value)) return value;
  const password = 'newPassword' in value ? value['newPassword'] : value['password'];
  return typeof password === 'string' ? { ...value, confirmPassword: password } : value;
}

function fromDefinition(schema: unknown, known: KnownValues, field: string | undefined): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = def['shape'] as Record<string, unknown>;
      const entries = Object.entries(shape).map(([name, value]) => [name, walk(value, known, name)] as const);
      const optional = Object.entries(shape)
        .filter(([, value]) => ['optional', 'default', 'prefault'].includes(defOf(value).type))
        .map(([name]) => name);
      return fc
        .record(Object.fromEntries(entries), {
          requiredKeys: entries.map(([name]) => name).filter((name) => !optional.includes(name)),
        })
        .map(withConfirmation);
    }
    case 'string':
      return stringOf(def);
    case 'number':
      return numberOf(def);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
      return fc.constant(undefined);
    case 'enum':
      return fc.constantFrom(...Object.values(def['entries'] as Record<string, string | number>));
    case 'literal':
      return fc.constantFrom(...(def['values'] as unknown[]));
    case 'array':
      return arrayOf(def, known, field);
    case 'record':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), walk(def['valueType'], known, undefined), {
        maxKeys: 4,
      });
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.option(walk(def['innerType'], known, field), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(walk(def['innerType'], known, field), { nil: null, freq: 4 });
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return walk(def['innerType'], known, field);
    case 'lazy':
      return walk((def['getter'] as () => unknown)(), known, field);
    case 'union':
      return fc.oneof(...(def['options'] as unknown[]).map((option) => walk(option, known, field)));
    case 'pipe': {
      // `a.transform(f)` is a pipe into a transform: values for `a`. Otherwise the output
      // schema is the stricter one (an e-mail after a trimmed string): values for it that the
      // input schema takes too.
      const input = def['in'] as z.ZodType;
      const output = def['out'] as z.ZodType;
      if (defOf(output).type === 'transform') return walk(input, known, field);
      return walk(output, known, field).filter((value) => input.safeParse(value).success);
    }
    default:
      // unknown, any, custom, transform on its own: any JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringOf(def: Def): fc.Arbitrary<string> {
  let minLength = 0;
  let maxLength: number | undefined;
  const patterns: RegExp[] = [];
  if (def['pattern'] instanceof RegExp) patterns.push(def['pattern']);
  let trims = false;
  for (const check of checksOf(def)) {
    if (check.check === 'min_length') minLength = Math.max(minLength, check['minimum'] as number);
    if (check.check === 'max_length') maxLength = Math.min(maxLength ?? Infinity, check['maximum'] as number);
    if (check.check === 'length_equals') minLength = maxLength = check['length'] as number;
    if (check.check === 'string_format' && check['pattern'] instanceof RegExp) patterns.push(check['pattern']);
    if (check.check === 'overwrite') trims = true;
  }
  const fits = (value: string) => {
    const length = (trims ? value.trim() : value).length;
    return length >= minLength && length <= (maxLength ?? Infinity) && patterns.every((pattern) => pattern.test(value));
  };
  const [first] = patterns;
  if (first) return fc.stringMatching(first).filter(fits);
  return fc
    .string({ minLength, maxLength: maxLength ?? Math.max(minLength, OPEN_LENGTH), unit: 'grapheme' })
    .filter(fits);
}

function numberOf(def: Def): fc.Arbitrary<number> {
  let integer = def['format'] === 'safeint' || def['format'] === 'int32';
  let min = -Number.MAX_SAFE_INTEGER;
  let max = Number.MAX_SAFE_INTEGER;
  for (const check of checksOf(def)) {
    if (check.check === 'number_format') integer = true;
    const value = check['value'] as number;
    if (check.check === 'greater_than')
      min = Math.max(min, check['inclusive'] ? value : value + (integer ? 1 : Number.EPSILON));
    if (check.check === 'less_than')
      max = Math.min(max, check['inclusive'] ? value : value - (integer ? 1 : Number.EPSILON));
  }
  if (integer) {
    const low = Math.ceil(min);
    const high = Math.floor(max);
    // Small values are the ones that name real rows; the bounds are where the bugs are.
    return fc.oneof(
      fc.integer({ min: low, max: Math.min(high, Math.max(low, 0) + 50) }),
      fc.integer({ min: low, max: high }),
      fc.constantFrom(low, high),
    );
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function arrayOf(def: Def, known: KnownValues, field: string | undefined): fc.Arbitrary<unknown[]> {
  let minLength = 0;
  let maxLength: number | undefined;
  for (const check of checksOf(def)) {
    if (check.check === 'min_length') minLength = check['minimum'] as number;
    if (check.check === 'max_length') maxLength = check['maximum'] as number;
    if (check.check === 'length_equals') minLength = maxLength = check['length'] as number;
  }
  // Unique: a list of ids is usually refined to hold each once.
  return fc.uniqueArray(walk(def['element'], known, field === undefined ? undefined : `${field}[]`), {
    minLength,
    maxLength: maxLength ?? Math.max(minLength, 8),
    selector: (value) => JSON.stringify(value),
  });
}
