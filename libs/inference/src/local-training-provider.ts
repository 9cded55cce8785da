import { TrainingNotFoundError } from './errors.js';
import type { StartTrainingInput, Training, TrainingProvider } from './inference-provider.js';

/** A trigger word that makes local trainings fail, so the failure path can be seen and tested. */
export const LOCAL_FAILING_TRIGGER_WORD = 'fail-training';
export const LOCAL_TRAINING_FAILURE =
  'The trigger word fail-training makes local trainings fail (for testing the failure path).';
export const DEFAULT_LOCAL_TRAINING_MS = 15_000;

export interface LocalTrainingProviderOptions {
  /** How long a training stays 'processing' (LOCAL_TRAINING_MS). */
  trainingMs?: number;
  /** Milliseconds since the epoch; injected by tests. */
  now?: () => number;
}

/** `local-<modelId>-<startedAtMs>-<ok|fail>`: everything getTraining needs, so no state survives a restart or needs to. */
const LOCAL_ID = /^local-(\d+)-(\d+)-(ok|fail)$/;

/** The local generator's handle on a trained model; generation resolves the selfies from its own records. */
export const localModelVersion = (modelId: number) => `local:${modelId}`;

/**
 * Trainings without an account or a network: a training is 'processing' for `trainingMs` after it
 * started, then 'succeeded' (or 'failed' for the trigger word `fail-training`).
 *
 * The id carries the model, the start time and the outcome, so any instance (a restarted process,
 * another replica) answers `getTraining` the same way. Idempotency: a repeated `startTraining` for a
 * model returns the training this instance already started for it unless that one failed or was
 * cancelled; across a restart, pass `startedAt` (the time the caller recorded the attempt) and the
 * same attempt yields the same id. Cancellation is remembered in memory only: the training service
 * records a cancellation itself and never asks about a cancelled training again.
 */
export class LocalTrainingProvider implements TrainingProvider {
  readonly kind = 'local' as const;
  readonly trainingMs: number;
  private readonly now: () => number;
  private readonly started = new Map<number, string>();
  private readonly canceled = new Set<string>();

  constructor(options: LocalTrainingProviderOptions = {}) {
    this.trainingMs = options.trainingMs ?? DEFAULT_LOCAL_TRAINING_MS;
    this.now = options.now ?? Date.now;
  }

  async startTraining(input: StartTrainingInput): Promise<Training> {
    if (input.startedAt === undefined) {
      const earlier = this.started.get(input.modelId);
      if (earlier !== undefined) {
        const training = await this.getTraining(earlier);
        if (training.status !== 'failed' && training.status !== 'canceled') return training;
      }
    }
    const startedAt = input.startedAt?.getTime() ?? this.now();
    const outcome = input.triggerWord === LOCAL_FAILING_TRIGGER_WORD ? 'fail' : 'ok';
    const id = `local-${input.modelId}-${startedAt}-${outcome}`;
    this.started.set(input.modelId, id);
    return this.getTraining(id);
  }

  async getTraining(id: string): Promise<Training> {
    const match = LOCAL_ID.exec(id);
    if (!match) throw new TrainingNotFoundError(id);
    const [, modelId, startedAt, outcome] = match;
    if (this.canceled.has(id)) return { id, status: 'canceled' };
    if (this.now() < Number(startedAt) + this.trainingMs) return { id, status: 'processing' };
    return outcome === 'fail'
      ? { id, status: 'failed', error: LOCAL_TRAINING_FAILURE }
      : { id, status: 'succeeded', version: localModelVersion(Number(modelId)) };
  }

  async cancelTraining(id: string): Promise<void> {
    const training = await this.getTraining(id);
    if (training.status === 'processing') this.canceled.add(id);
  }

  /** The local adapter keeps nothing for a model. */
  async deleteModel(_destination: string): Promise<void> {
    return;
  }
}
