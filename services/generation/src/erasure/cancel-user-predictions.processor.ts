import { type CancelUserPredictions, cancelUserPredictions } from '@likeness/contracts';
import { PredictionNotFoundError, type PredictionProvider } from '@likeness/inference';
import { JobHandler, type JobProcessor } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PREDICTION_PROVIDER } from '../providers/prediction-provider.provider.js';

/**
 * Cancels, at the provider, the predictions of a deleted user's unfinished jobs (the provider
 * charges while they run), and forgets them. Each step is idempotent; a worker takes it, as only
 * workers hold the provider.
 */
@Injectable()
@JobHandler(cancelUserPredictions, {
  concurrency: 1,
  ackWaitMs: 60_000,
  maxAttempts: 10,
  backoff: { initialMs: 2_000, maxMs: 5 * 60_000 },
})
export class CancelUserPredictionsProcessor implements JobProcessor<typeof cancelUserPredictions> {
  private readonly logger = new Logger(CancelUserPredictionsProcessor.name);

  constructor(@Inject(PREDICTION_PROVIDER) private readonly provider: PredictionProvider) {}

  async run({ userId, provider, predictionIds }: CancelUserPredictions): Promise<void> {
    if (provider !== this.provider.kind) {
      this.logger.error(`Predictions of deleted user ${userId} run on ${provider}, which this worker cannot reach`);
      return;
    }
    for (const id of predictionIds) {
      try {
        await this.provider.cancelPrediction(id);
      } catch (error) {
        if (!(error instanceof PredictionNotFoundError)) throw error;
      }
      await this.provider.discardPrediction(id);
    }
    this.logger.log(`Cancelled ${predictionIds.length} prediction(s) of deleted user ${userId}`);
  }

  async giveUp({ userId, predictionIds }: CancelUserPredictions, error: unknown): Promise<void> {
    this.logger.error(
      `Cancelling the predictions of deleted user ${userId} (${predictionIds.join(', ')}) failed for good: ${(error as Error).message}`,
    );
  }
}
