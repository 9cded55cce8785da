/** How retries space out: `initialMs` after the first failure, doubling (by `factor`) up to `maxMs`. */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** Growth per failure (default 2). */
  factor?: number;
  /** Fraction of each delay drawn at random (0-1, default 0), so replicas do not retry in step. */
  jitter?: number;
}

/** The wait before retry number `attempt` (1 after the first failure). */
export function backoffDelay(policy: BackoffPolicy, attempt: number): number {
  const raw = policy.initialMs * (policy.factor ?? 2) ** Math.max(0, attempt - 1);
  const capped = Math.min(policy.maxMs, raw);
  const jitter = Math.min(1, Math.max(0, policy.jitter ?? 0));
  return Math.round(capped * (1 - jitter * Math.random()));
}

/** Waiting for a broker or a database that is away: quick at first, then every few seconds. */
export const RECONNECT_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 5_000, jitter: 0.2 };

/**
 * A run of consecutive failures of one loop: how long to wait before the next try, and whether
 * this failure deserves a log line (the first, then every 20th, so an outage is reported
 * without flooding the logs).
 */
export class FailureStreak {
  private count = 0;

  constructor(private readonly policy: BackoffPolicy = RECONNECT_BACKOFF) {}

  get failures(): number {
    return this.count;
  }

  /** Counts a failure; returns the wait before the next try. */
  fail(): number {
    this.count += 1;
    return backoffDelay(this.policy, this.count);
  }

  /** Whether the failure just counted should be logged. */
  get worthLogging(): boolean {
    return this.count === 1 || this.count % 20 === 0;
  }

  /** Ends the streak; true when there was one (worth a "working again" line). */
  reset(): boolean {
    const recovered = this.count > 0;
    this.count = 0;
    return recovered;
  }
}
