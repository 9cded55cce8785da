/**
 * What an adapter throws. The training service turns these into its own error codes
 * (`ProviderUnavailableError` → TRAINING.PROVIDER_UNAVAILABLE); they never cross a process hop
 * themselves.
 */

/** The provider could not be reached or answered 5xx/429: try again later, nothing is known to have happened. */
export class ProviderUnavailableError extends Error {
  override readonly name = 'ProviderUnavailableError';
  constructor(
    message: string,
    /** The HTTP status when the provider answered, undefined for a network error or a timeout. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The provider refused the request (4xx other than 404/429): retrying the same call will not help. */
export class ProviderRejectedError extends Error {
  override readonly name = 'ProviderRejectedError';
  constructor(
    message: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The provider has no training with this id (or the id is not one this adapter issues). */
export class TrainingNotFoundError extends Error {
  override readonly name = 'TrainingNotFoundError';
  constructor(readonly trainingId: string) {
    super(`The inference provider has no training ${trainingId}`);
  }
}

/** The provider has no prediction with this id (or the id is not one this adapter issues). */
export class PredictionNotFoundError extends Error {
  override readonly name = 'PredictionNotFoundError';
  constructor(readonly predictionId: string) {
    super(`The inference provider has no prediction ${predictionId}`);
  }
}
