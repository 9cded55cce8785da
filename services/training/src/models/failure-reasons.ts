import type { Training } from '@likeness/inference';

/** What a person reads under "Training failed": what happened, and that it cost nothing. */
const NOT_CHARGED = 'Your credits were not charged.';
const MAX_PROVIDER_DETAIL = 300;

export const FailureReasons = {
  timedOut: `The training took too long and was stopped. ${NOT_CHARGED}`,
  cancelled: `The training was cancelled. ${NOT_CHARGED}`,
  providerUnavailable: `The training could not be started because the training provider is unavailable. Please try again later. ${NOT_CHARGED}`,
  notStarted: `The training could not be started. Please try again. ${NOT_CHARGED}`,
  lost: `The training provider lost track of this training. Please train the model again. ${NOT_CHARGED}`,
  noVersion: `The training finished without producing a model. Please train the model again. ${NOT_CHARGED}`,
  selfiesGone: `Some of the chosen selfies were deleted before the training started. ${NOT_CHARGED}`,
  insufficientCredits: `There were not enough credits to start the training. ${NOT_CHARGED}`,
  providerChanged: `The training was started with another provider and cannot be followed any more. ${NOT_CHARGED}`,
} as const;

/** The reason a finished training failed; undefined when it succeeded properly or still runs. */
export function failureReasonOf(training: Training): string | undefined {
  switch (training.status) {
    case 'succeeded':
      return training.version ? undefined : FailureReasons.noVersion;
    case 'canceled':
      return FailureReasons.cancelled;
    case 'failed': {
      const detail = training.error?.trim().replace(/[.\s]+$/, '');
      if (!detail) return `The training failed. ${NOT_CHARGED}`;
      const short = detail.length > MAX_PROVIDER_DETAIL ? `${detail.slice(0, MAX_PROVIDER_DETAIL - 1)}…` : detail;
      return `The training failed: ${short}. ${NOT_CHARGED}`;
    }
    default:
      return undefined;
  }
}
