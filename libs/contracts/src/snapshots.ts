import { z } from 'zod';

/**
 * Snapshot RPCs: a service's current state, page by page in id order, for rebuilding a read model
 * elsewhere (reporting's `npm run reporting:rebuild`). Keyset paging: `afterId` is the last id of
 * the page before; `nextAfterId` is null on the last page.
 */
export const SNAPSHOT_MAX_PAGE = 1_000;

const limitMessage = `limit must be a whole number from 1 to ${SNAPSHOT_MAX_PAGE}`;

export function snapshotRequestSchema<I extends z.ZodType>(id: I) {
  return z.object({
    afterId: id.optional(),
    limit: z
      .number({ error: limitMessage })
      .int({ error: limitMessage })
      .min(1, { error: limitMessage })
      .max(SNAPSHOT_MAX_PAGE, { error: limitMessage })
      .default(SNAPSHOT_MAX_PAGE),
  });
}

export function snapshotPageSchema<T extends z.ZodType, I extends z.ZodType>(item: T, id: I) {
  return z.object({ items: z.array(item), nextAfterId: id.nullable() });
}
