/**
 * The inference port: trainings of personal models (and, with generation, predictions with
 * them), behind one interface with two adapters (Replicate, and a local one that needs no account). Callers keep
 * their own records; an adapter only speaks to its provider.
 */

export type ProviderKind = 'replicate' | 'local';

/** Replicate's lifecycle, which the local adapter follows too. */
export type JobStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

export const isFinished = (status: JobStatus) => status === 'succeeded' || status === 'failed' || status === 'canceled';

export interface StartTrainingInput {
  /** Our model id: names the destination and lets a lost creation be found again. */
  modelId: number;
  userId: number;
  triggerWord: string;
  /** A URL the provider can fetch the zip of training images from until it expires. */
  imagesZipUrl?: string;
  /** Storage keys of the training images (the local adapter keeps these instead of a zip). */
  imageKeys: string[];
  /** Where the provider posts progress; undefined when webhooks are not in use. */
  webhookUrl?: string;
  /**
   * When the caller recorded this attempt. The local adapter derives its training id from it, so
   * repeating the call for the same attempt (even after a restart) returns the same training;
   * Replicate finds its trainings again by destination and ignores it.
   */
  startedAt?: Date;
}

export interface Training {
  id: string;
  status: JobStatus;
  /**
   * What a prediction needs to run the trained model (Replicate: `owner/name:version`; local:
   * an id the local generator understands). Set once the training succeeded.
   */
  version?: string;
  /** The provider's words, when it failed. */
  error?: string;
  /** The destination model the provider keeps for us, if any (deleted with the model). */
  destination?: string;
}

/** The training half of the port; `Training.version` is what a prediction takes. */
export interface TrainingProvider {
  readonly kind: ProviderKind;
  /**
   * Starts a training. Safe to call again for the same model after a failure or timeout: an
   * adapter first looks for a training it already started for that model and returns it.
   */
  startTraining(input: StartTrainingInput): Promise<Training>;
  getTraining(id: string): Promise<Training>;
  cancelTraining(id: string): Promise<void>;
  /** Removes what the provider keeps for a model (Replicate: the destination model). */
  deleteModel(destination: string): Promise<void>;
}

export const MAX_PREDICTION_OUTPUTS = 4;

export interface StartPredictionInput {
  /** `Training.version` of a succeeded training (Replicate: `owner/name:version`; local: `local:<modelId>`). */
  version: string;
  prompt: string;
  /** 1 to 4. */
  numOutputs: number;
  /** What the images should avoid; providers whose model takes no negative prompt leave it out. */
  negativePrompt?: string;
  /** Where the provider posts the completed prediction; undefined when webhooks are not in use. */
  webhookUrl?: string;
  seed?: number;
  /**
   * Our name for the prediction (a generation job's id). An adapter first looks for a prediction
   * it started with this tag and returns that one, so a start whose answer was lost, or whose
   * caller died before keeping its id, is not paid for twice. Replicate carries the tag on the
   * webhook URL (`?job=<tag>`, as trainings carry their destination), so it finds them only with
   * a `webhookUrl`; the local adapter keeps it in storage.
   */
  tag?: string;
}

/** The webhook URL's query parameter that carries a prediction's tag (the gateway routes on it). */
export const PREDICTION_TAG_PARAMETER = 'job';

/** The webhook URL a prediction with this tag is given: `webhookUrl?job=<tag>`. */
export function taggedWebhookUrl(webhookUrl: string, tag: string | undefined): string {
  if (tag === undefined) return webhookUrl;
  const url = new URL(webhookUrl);
  url.searchParams.set(PREDICTION_TAG_PARAMETER, tag);
  return url.toString();
}

export interface Prediction {
  id: string;
  status: JobStatus;
  /**
   * Set once it succeeded. Replicate: URLs that expire (copy them); local: storage keys under
   * `staging/local-predictions/`.
   */
  outputs?: string[];
  /** The provider's words, when it failed. */
  error?: string;
}

/** The generation half of the port: images from a trained model and a prompt. */
export interface PredictionProvider {
  readonly kind: ProviderKind;
  startPrediction(input: StartPredictionInput): Promise<Prediction>;
  /** @throws PredictionNotFoundError */
  getPrediction(id: string): Promise<Prediction>;
  /** A finished prediction stays as it was. @throws PredictionNotFoundError */
  cancelPrediction(id: string): Promise<void>;
  /**
   * Forgets a finished prediction whose outputs were copied away: the local adapter deletes what
   * it keeps in storage; Replicate deletes outputs itself after an hour.
   */
  discardPrediction(id: string): Promise<void>;
}

export function assertNumOutputs(numOutputs: number): void {
  if (!Number.isInteger(numOutputs) || numOutputs < 1 || numOutputs > MAX_PREDICTION_OUTPUTS) {
    throw new RangeError(`numOutputs must be an integer from 1 to ${MAX_PREDICTION_OUTPUTS}, not ${numOutputs}`);
  }
}
