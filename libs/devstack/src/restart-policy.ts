/** How the stack restarts an app that exits while it runs. */
export interface RestartPolicy {
  /** The delay before the first restart of a run of crashes; each crash in a row doubles it. */
  initialDelayMs: number;
  /** The longest delay between restarts. */
  maxDelayMs: number;
  /** An app that stayed up this long has recovered: its next crash waits the first delay again. */
  resetAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
};

/** The delay before the `crashesInARow`-th restart (from 1): 1 s, 2 s, 4 s ... up to the cap. */
export function restartDelay(policy: RestartPolicy, crashesInARow: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, crashesInARow - 1));
}

/** "1 s", "30 s", "0.5 s": a delay as the log says it. */
export function formatDelay(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** One app's crashes: how long to wait before each restart, and how many there were. */
export class CrashCounter {
  private inARow = 0;
  /** Restarts so far, whatever came between them. */
  total = 0;

  constructor(private readonly policy: RestartPolicy) {}

  /** Counts a crash after the app ran for `upMs`; returns the delay before its restart. */
  crashed(upMs: number): number {
    if (upMs >= this.policy.resetAfterMs) this.inARow = 0;
    this.inARow += 1;
    this.total += 1;
    return restartDelay(this.policy, this.inARow);
  }
}
