import type { JobOutcome } from '../generation-metrics.js';

/** Why a job failed, in words for the person who asked for it. Each says what it cost: nothing. */
export const FailureReasons = {
  modelGone: 'The model was deleted or is no longer ready. Your credits were not charged.',
  providerRefused: (detail: string) =>
    `The image provider refused this request (${detail}). Your credits were not charged.`,
  predictionFailed: (detail: string) =>
    `The image provider could not create your avatar: ${detail}. Your credits were not charged.`,
  predictionCanceled: 'The image provider cancelled the generation. Your credits were not charged.',
  timedOut: 'The generation took too long and was stopped. Your credits were not charged.',
  gaveUp: (attempts: number) =>
    `We could not create your avatar after ${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}. Your credits were not charged.`,
  abandoned: 'We could not finish this generation. Your credits were not charged.',
  invalidOutput: (detail: string) =>
    `The image provider returned an image we could not keep (${detail}). Your credits were not charged.`,
} as const;

/** Why a job failed, in one word, for the metrics (the reasons' words vary with the provider's). */
export type FailureCause = Exclude<JobOutcome, 'completed'>;

/** A job's failure: the words its owner reads and the kind of failure it is. */
export interface JobFailure {
  cause: FailureCause;
  reason: string;
}

/** Provider words can be long or technical: keep the first sentence, briefly. */
export function shortDetail(text: string | undefined, fallback: string): string {
  const first = (text ?? '').split(/\n/)[0]?.trim() ?? '';
  if (!first) return fallback;
  return first.length > 200 ? `${first.slice(0, 197)}...` : first;
}
