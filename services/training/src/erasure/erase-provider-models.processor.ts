import { type EraseProviderModels, eraseProviderModels } from '@likeness/contracts';
import { JobHandler, type JobProcessor } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { ModelErasure } from './model-erasure.service.js';

/** What the provider keeps for a deleted user; retried with a growing delay while it fails (about an hour in all). */
@Injectable()
@JobHandler(eraseProviderModels, {
  concurrency: 2,
  ackWaitMs: 120_000,
  maxAttempts: 12,
  backoff: { initialMs: 5_000, maxMs: 10 * 60_000 },
})
export class EraseProviderModelsProcessor implements JobProcessor<typeof eraseProviderModels> {
  constructor(private readonly erasure: ModelErasure) {}

  run(payload: EraseProviderModels) {
    return this.erasure.eraseAtProvider(payload);
  }

  giveUp(payload: EraseProviderModels, error: unknown) {
    return this.erasure.gaveUp(payload, error);
  }
}
