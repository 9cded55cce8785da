import { type PurgeUserObjects, purgeUserObjects } from '@likeness/contracts';
import { type JobContext, JobHandler, type JobProcessor } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { UserErasure } from './user-erasure.service.js';

/** Deletes a deleted user's objects; retried with a growing delay while storage fails. */
@Injectable()
@JobHandler(purgeUserObjects, { concurrency: 2, ackWaitMs: 60_000, maxAttempts: 8 })
export class PurgeUserObjectsProcessor implements JobProcessor<typeof purgeUserObjects> {
  constructor(private readonly erasure: UserErasure) {}

  run({ userId }: PurgeUserObjects, { signal }: JobContext) {
    return this.erasure.purgeObjects(userId, signal);
  }

  giveUp({ userId }: PurgeUserObjects, error: unknown) {
    return this.erasure.purgeFailed(userId, error);
  }
}
