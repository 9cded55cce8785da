import { type NatsSettings, namespaced } from '@likeness/nest-kit';

/**
 * Core NATS subjects (no stream: a lost one costs only the safety net's wait) on which the request
 * side tells the workers that a job's prediction has ended, as its verified webhook said.
 */
export const predictionEndedSubject = (settings: NatsSettings, jobId: string) =>
  namespaced(settings, `generation.predictions.${jobId}.ended`);

export const anyPredictionEndedSubject = (settings: NatsSettings) =>
  namespaced(settings, 'generation.predictions.*.ended');

/** The job id a prediction-ended subject names. */
export function jobIdOf(settings: NatsSettings, subject: string): string | undefined {
  const prefix = namespaced(settings, 'generation.predictions.');
  if (!subject.startsWith(prefix) || !subject.endsWith('.ended')) return undefined;
  return subject.slice(prefix.length, -'.ended'.length);
}
