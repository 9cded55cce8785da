import { httpRoutes, safeParseRequest } from '@likeness/contracts';
import fc from 'fast-check';
import { z } from 'zod';
import { arbitraryOf } from './zod-arbitrary.js';

const SEED = 42;

/** Sampled values the schema refuses (as the gateway parses requests), the first few. */
function refusedValues(schema: z.ZodType): unknown[] {
  const values = fc.sample(arbitraryOf(schema), { seed: SEED, numRuns: 200 });
  return values.filter((value) => !safeParseRequest(schema, value).success).slice(0, 3);
}

describe(arbitraryOf.name, () => {
  const schemas = httpRoutes.flatMap((route) =>
    (
      [
        ['body', route.body],
        ['query', route.query],
        ['params', route.params],
      ] as const
    )
      .filter(([, schema]) => schema !== undefined)
      .map(([part, schema]) => [`${route.method} ${route.path} ${part}`, schema!] as const),
  );

  it.each(schemas)('should make values that %s accepts', (_name, schema) => {
    expect(refusedValues(schema)).toEqual([]);
  });

  it('should read every kind of schema the contracts use', () => {
    const schema = z.object({
      name: z
        .string()
        .trim()
        .min(3)
        .max(30)
        .regex(/^[A-Za-z0-9 _-]+$/),
      email: z.string().trim().max(254).pipe(z.email()),
      card: z
        .string()
        .transform((value) => value.replace(/[\s-]/g, ''))
        .pipe(z.string().regex(/^\d{12,19}$/)),
      count: z.number().int().min(1).max(4),
      ratio: z.number().gt(0).lt(1),
      id: z.coerce.number().int().positive(),
      jobId: z.uuid(),
      at: z.iso.datetime(),
      kind: z.enum(['png', 'jpeg']),
      type: z.literal('flux-lora').default('flux-lora'),
      ids: z.array(z.number().int().positive()).min(2).max(3),
      note: z.string().optional(),
      parent: z.number().int().nullable(),
      either: z.union([z.literal('a'), z.number().int()]),
      flag: z.boolean(),
      extra: z.record(z.string(), z.unknown()),
    });
    expect(refusedValues(schema)).toEqual([]);
  });

  it('should draw the known values of a field as well as made-up ones', () => {
    const values = fc.sample(arbitraryOf(z.object({ id: z.number().int().positive() }), { id: [7] }), {
      seed: SEED,
      numRuns: 100,
    }) as { id: number }[];
    const sevens = values.filter((value) => value.id === 7).length;
    expect(sevens).toBeGreaterThan(20);
    expect(sevens).toBeLessThan(100);
  });
});
