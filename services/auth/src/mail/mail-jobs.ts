import type { JobOptions } from '@likeness/nest-kit';
import type { AuthConfig } from '../auth.config.js';

/**
 * How every mail job runs: a few at once, retried MAIL_RETRY_INITIAL_MS (5 s) after a failure,
 * doubling up to 10 minutes, so by default an outage of the mail server of up to about an hour
 * (12 attempts) delays mail without losing it.
 */
export const mailJobOptions = (config: AuthConfig): JobOptions => ({
  concurrency: config.MAIL_CONCURRENCY,
  // A send is bounded by the SMTP timeouts (10 s to connect, 30 s idle); heartbeats keep it alive.
  ackWaitMs: 60_000,
  maxAttempts: config.MAIL_MAX_ATTEMPTS,
  backoff: { initialMs: config.MAIL_RETRY_INITIAL_MS, maxMs: 10 * 60_000, jitter: 0.2 },
});
