import { z } from 'zod';
import { defineJob } from '../jobs.js';

/**
 * Deletes every object stored under a deleted user's prefix (`users/<userId>/`), in batches. The
 * user's rows are already gone when it is queued (nothing serves the objects any more), so it
 * only has to finish; running it again deletes what is left, if anything.
 */
export const purgeUserObjects = defineJob({
  queue: 'media',
  name: 'purge-user-objects',
  version: 1,
  payload: z.object({ userId: z.number().int().positive() }),
  key: ({ userId }) => `user-${userId}`,
});
export type PurgeUserObjects = z.infer<typeof purgeUserObjects.payload>;
