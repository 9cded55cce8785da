import { type ErrorCode, MediaRpc, TrainingRpc } from '@likeness/contracts';
import {
  type Prediction,
  type PredictionProvider,
  PredictionNotFoundError,
  ProviderRejectedError,
  isFinished,
} from '@likeness/inference';
import type { ObjectStorage } from '@likeness/storage';
import { APP_CONFIG, DomainError, RpcClient } from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type GenerationConfig, predictionWebhookUrl } from '../generation.config.js';
import { type GenerationStage, type ProviderOperation, generationMetrics } from '../generation-metrics.js';
import { FailureReasons, type JobFailure, shortDetail } from '../jobs/failure-reasons.js';
import { GenerationJob } from '../jobs/generation-job.entity.js';
import { JobProgress } from '../jobs/job-progress.js';
import { JobTransitions } from '../jobs/job-transitions.js';
import { ModelImages, OBJECT_STORAGE, PREDICTION_PROVIDER } from '../providers/prediction-provider.provider.js';
import { type PredictionWatch, PredictionWakeups } from '../webhooks/prediction-wakeups.js';
import { PROVIDER_RATE_LIMITER } from './workers.providers.js';
import type { ProviderRateLimiter } from './provider-rate-limiter.js';
import { OutputRejectedError, downloadOutput } from './download-output.js';
import { providerErrorKind } from './provider-error-kind.js';

/** What became of one delivery of a job. */
export type RunOutcome = 'completed' | 'failed' | 'skipped';

/** Refused for good: another attempt will not help, the job fails with this reason. */
class JobRefused extends Error {
  constructor(readonly failure: JobFailure) {
    super(failure.reason);
  }
}

const hasCode = (error: unknown, ...codes: ErrorCode[]) =>
  error instanceof DomainError && (codes as string[]).includes(error.code);

/**
 * Runs one delivery of a job, as far as it gets. Every step is safe to repeat after a crash:
 * a prediction already started is adopted (its id is kept on the job), each output is kept by
 * media under `generation:<jobId>:<n>` (the same avatar however often), and the job ends only
 * by a conditional transition. An error thrown from here means "try again later". Each stage is
 * timed and each failed provider call counted by kind (generation-metrics.ts).
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger(JobRunner.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: GenerationConfig,
    @Inject(PREDICTION_PROVIDER) private readonly provider: PredictionProvider,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(PROVIDER_RATE_LIMITER) private readonly limiter: ProviderRateLimiter,
    private readonly images: ModelImages,
    private readonly rpc: RpcClient,
    private readonly transitions: JobTransitions,
    private readonly progress: JobProgress,
    private readonly wakeups: PredictionWakeups,
  ) {}

  /** `delivery` counts from 1 (the kit gives the job up past JOB_MAX_ATTEMPTS rather than run it). */
  async run(jobId: string, delivery: number, signal?: AbortSignal): Promise<RunOutcome> {
    const job = await this.dataSource.getRepository(GenerationJob).findOneBy({ id: jobId });
    if (!job || job.status !== 'pending') return 'skipped';
    // A new attempt generates (again) before it keeps anything: the stage says so.
    await this.progress.attemptStarted(jobId);
    this.logger.log(`Job ${jobId}: attempt ${delivery} started`);
    if (delivery === 1) this.observeStage('queued', (Date.now() - job.createdAt.getTime()) / 1000);
    try {
      const started = performance.now();
      await this.timed('model', () => this.loadModel(job));
      const predicting = performance.now();
      const prediction = await this.predict(job, signal);
      const keeping = performance.now();
      const avatarIds = await this.keepOutputs(job, prediction.outputs ?? []);
      const completed = await this.transitions.complete(job.id, avatarIds);
      const ended = performance.now();
      await this.discard(prediction.id);
      if (completed) {
        const ms = (from: number, to: number) => Math.round(to - from);
        this.logger.log(
          `Job ${job.id} completed with ${avatarIds.length} avatar(s) in ${ms(started, ended)} ms ` +
            `(model ${ms(started, predicting)}, prediction ${ms(predicting, keeping)}, keeping ${ms(keeping, ended)})`,
        );
      }
      return completed ? 'completed' : 'skipped';
    } catch (error) {
      if (error instanceof JobRefused) return this.fail(job, error.failure);
      throw error;
    }
  }

  /** Fails a job for good: its last attempt kept failing, or its worker died on it. */
  async giveUp(jobId: string, error: unknown): Promise<void> {
    const job = await this.dataSource.getRepository(GenerationJob).findOneBy({ id: jobId });
    if (!job || job.status !== 'pending') return;
    this.logger.error(`Job ${jobId} failed on its last attempt: ${(error as Error).message}`);
    await this.fail(job, { cause: 'gave_up', reason: FailureReasons.gaveUp(this.config.JOB_MAX_ATTEMPTS) });
  }

  /** The model must still be the person's and completed; its selfies feed the local generator. */
  private async loadModel(job: GenerationJob): Promise<void> {
    try {
      const model = await this.rpc.call(TrainingRpc.getRunnableModel, { userId: job.userId, id: job.customModelId });
      this.images.remember(model.version, model.imageKeys);
    } catch (error) {
      if (hasCode(error, 'COMMON.NOT_FOUND', 'TRAINING.MODEL_NOT_READY'))
        throw new JobRefused({ cause: 'model_gone', reason: FailureReasons.modelGone });
      throw error;
    }
  }

  /**
   * Adopts the prediction an earlier attempt started, or starts one, and waits for its end. The
   * prediction is tagged with the job's id: one whose id an earlier attempt never kept (it died
   * between the provider's answer and the update below) is found by the adapter and adopted.
   */
  private async predict(job: GenerationJob, signal?: AbortSignal): Promise<Prediction> {
    const watch = this.wakeups.watch(job.id);
    try {
      const prediction =
        (job.predictionId ? await this.adopt(job.predictionId) : undefined) ?? (await this.start(job, signal));
      return this.outcomeOf(await this.timed('prediction', () => this.waitFor(prediction, watch, signal)));
    } finally {
      watch.close();
    }
  }

  private async start(job: GenerationJob, signal?: AbortSignal): Promise<Prediction> {
    const waitedMs = await this.limiter.acquire(signal);
    if (waitedMs > 0) generationMetrics.rateLimitWaitSeconds.observe(waitedMs / 1000);
    const webhookUrl = predictionWebhookUrl(this.config);
    let prediction: Prediction;
    try {
      prediction = await this.timed('start', () =>
        this.callProvider('start', () =>
          this.provider.startPrediction({
            version: job.modelVersion,
            prompt: job.promptText,
            numOutputs: job.numOutputs,
            tag: job.id,
            ...(webhookUrl ? { webhookUrl } : {}),
            ...(job.settings.negativePrompt ? { negativePrompt: job.settings.negativePrompt } : {}),
          }),
        ),
      );
    } catch (error) {
      if (error instanceof ProviderRejectedError) {
        throw new JobRefused({
          cause: 'provider_refused',
          reason: FailureReasons.providerRefused(shortDetail(error.message, `HTTP ${error.status}`)),
        });
      }
      throw error;
    }
    await this.dataSource.query(
      `UPDATE generation.generation_jobs SET prediction_id = $2, updated_at = now() WHERE id = $1 AND status = 'pending'`,
      [job.id, prediction.id],
    );
    // Failing the job from here on forgets this prediction too.
    job.predictionId = prediction.id;
    return prediction;
  }

  private outcomeOf(finished: Prediction): Prediction {
    if (finished.status === 'succeeded') {
      if (!finished.outputs?.length) {
        throw new JobRefused({
          cause: 'prediction_failed',
          reason: FailureReasons.predictionFailed('no images came back'),
        });
      }
      return finished;
    }
    throw new JobRefused(
      finished.status === 'canceled'
        ? { cause: 'prediction_canceled', reason: FailureReasons.predictionCanceled }
        : {
            cause: 'prediction_failed',
            reason: FailureReasons.predictionFailed(shortDetail(finished.error, 'an unknown error')),
          },
    );
  }

  private async adopt(predictionId: string): Promise<Prediction | undefined> {
    try {
      return await this.callProvider('poll', () => this.provider.getPrediction(predictionId));
    } catch (error) {
      if (error instanceof PredictionNotFoundError) return undefined;
      throw error;
    }
  }

  /**
   * Waits until the prediction ends. With webhooks, its webhook wakes the wait, and the provider is
   * asked only every PREDICTION_SAFETY_POLL_MS besides (a webhook may be lost); without them, the
   * local generator is asked once its delay has passed, Replicate every second at first and less
   * often as it runs. Past JOB_TIMEOUT_MS it is cancelled.
   */
  private async waitFor(started: Prediction, watch: PredictionWatch, signal?: AbortSignal): Promise<Prediction> {
    const deadline = Date.now() + this.config.JOB_TIMEOUT_MS;
    const pause = this.pauses();
    let prediction = started;
    while (!isFinished(prediction.status)) {
      if (Date.now() >= deadline) {
        await this.callProvider('cancel', () => this.provider.cancelPrediction(prediction.id)).catch((error: Error) =>
          this.logger.warn(`Cancelling prediction ${prediction.id} failed: ${error.message}`),
        );
        throw new JobRefused({ cause: 'timed_out', reason: FailureReasons.timedOut });
      }
      await watch.wait(Math.min(pause.next().value, Math.max(0, deadline - Date.now())), signal);
      const id = prediction.id;
      prediction = await this.callProvider('poll', () => this.provider.getPrediction(id));
    }
    return prediction;
  }

  /** The pauses between two questions to the provider about a running prediction. */
  private *pauses(): Generator<number, never> {
    if (predictionWebhookUrl(this.config)) {
      for (;;) yield this.config.PREDICTION_SAFETY_POLL_MS;
    }
    const local = this.provider.kind === 'local';
    let wait = local ? this.config.LOCAL_GENERATION_MS : 1_000;
    for (;;) {
      yield wait;
      wait = local ? 50 : Math.min(5_000, wait * 1.5);
    }
  }

  /** Copies every output into our storage through media (provider URLs expire); one avatar each. */
  private async keepOutputs(job: GenerationJob, outputs: string[]): Promise<number[]> {
    // The waiting screen shows "saving" from here and each image as soon as it is kept.
    await this.progress.savingStarted(job.id);
    const avatars = await Promise.all(
      outputs.map(async (output, index) => {
        const stagingKey = await this.stage(job, output, index);
        try {
          const avatar = await this.timed('store', () =>
            this.callProvider('store', () =>
              this.rpc.call(MediaRpc.storeAvatar, {
                userId: job.userId,
                promptText: job.promptText,
                customModelId: job.customModelId,
                stagingKey,
                sourceRef: `generation:${job.id}:${index + 1}`,
              }),
            ),
          );
          await this.progress.avatarKept(job.id, avatar.id);
          return avatar.id;
        } catch (error) {
          if (hasCode(error, 'MEDIA.INVALID_IMAGE')) {
            throw new JobRefused({
              cause: 'invalid_output',
              reason: FailureReasons.invalidOutput(shortDetail((error as Error).message, 'unreadable')),
            });
          }
          throw error;
        }
      }),
    );
    return avatars;
  }

  /** Local outputs already sit in storage's staging area; a provider's URL is downloaded there. */
  private async stage(job: GenerationJob, output: string, index: number): Promise<string> {
    if (output.startsWith('staging/')) return output;
    const key = `staging/generations/${job.id}/${index + 1}`;
    await this.timed('download', async () => {
      const image = await this.callProvider('download', () => downloadOutput(output)).catch((error: unknown) => {
        if (error instanceof OutputRejectedError) {
          throw new JobRefused({ cause: 'invalid_output', reason: FailureReasons.invalidOutput(error.message) });
        }
        throw error;
      });
      await this.storage.put(key, image.bytes, { contentType: image.contentType });
    });
    return key;
  }

  private async fail(job: GenerationJob, failure: JobFailure): Promise<RunOutcome> {
    const failed = await this.transitions.fail(job.id, failure);
    if (failed) this.logger.warn(`Job ${job.id} failed: ${failure.reason}`);
    if (job.predictionId) await this.forget(job.predictionId);
    return failed ? 'failed' : 'skipped';
  }

  /**
   * A failed job's prediction may still run (an earlier attempt started it, or the last one gave
   * up waiting): it is cancelled, as the provider charges while it runs and nobody will take its
   * images, then discarded. Cancelling one that has ended changes nothing.
   */
  private async forget(predictionId: string): Promise<void> {
    await this.callProvider('cancel', () => this.provider.cancelPrediction(predictionId)).catch((error: Error) =>
      this.logger.warn(`Cancelling prediction ${predictionId} failed: ${error.message}`),
    );
    await this.discard(predictionId);
  }

  private async discard(predictionId: string): Promise<void> {
    await this.callProvider('discard', () => this.provider.discardPrediction(predictionId)).catch((error: Error) =>
      this.logger.warn(`Discarding prediction ${predictionId} failed: ${error.message}`),
    );
  }

  /** Times one stage of the attempt, whether it ends well or not (a failing stage takes time too). */
  private async timed<T>(stage: GenerationStage, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.observeStage(stage, (performance.now() - started) / 1000);
    }
  }

  private observeStage(stage: GenerationStage, seconds: number): void {
    generationMetrics.stageSeconds.observe({ stage, provider: this.provider.kind }, Math.max(0, seconds));
  }

  /** Calls the provider (or media with its output), counting a failure by its kind; the caller decides what it means. */
  private async callProvider<T>(operation: ProviderOperation, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const kind = providerErrorKind(error);
      if (kind) generationMetrics.providerErrors.inc({ provider: this.provider.kind, operation, kind });
      throw error;
    }
  }
}
