import { APP_CONFIG, DomainError } from '@likeness/nest-kit';
import { Inject, Injectable } from '@nestjs/common';
import argon2 from 'argon2';
import type { AuthConfig } from '../auth.config.js';

/** argon2id with OWASP's recommended minimum: 19 MiB of memory, 2 passes, 1 lane. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const TOO_MANY_SIGN_INS = "We're getting a lot of sign-ins right now. Please try again in a few seconds.";
/** What a refused caller is told to wait, at most (the queue drains much faster than that). */
const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * Hashes and verifies passwords, at most PASSWORD_HASH_CONCURRENCY at once with at most
 * PASSWORD_HASH_QUEUE waiting. Each argon2 costs tens of milliseconds of a core; without a bound a
 * burst of logins queues them all in libuv's thread pool and every one of them waits past its
 * caller's timeout. Past the bound a call is refused at once (503, with the time the queue needs
 * to drain), so the ones admitted finish in bounded time.
 */
@Injectable()
export class PasswordHasher {
  /** Verifying against this costs what a real check costs, so unknown users take as long. */
  private readonly decoy = argon2.hash('decoy password that matches nothing', OPTIONS);
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** A moving average of one hash's time, for the wait a refusal announces. */
  private averageMs = 50;

  constructor(@Inject(APP_CONFIG) private readonly config: AuthConfig) {}

  hash(password: string): Promise<string> {
    return this.bounded(() => argon2.hash(password, OPTIONS));
  }

  /** Refused (503) when too many are waiting; never says whether that user exists. */
  async verify(hash: string | undefined, password: string): Promise<boolean> {
    const against = hash ?? (await this.decoy);
    return this.bounded(async () => {
      try {
        return await argon2.verify(against, password);
      } catch {
        return false;
      }
    });
  }

  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.config.PASSWORD_HASH_CONCURRENCY) {
      this.running += 1;
    } else if (this.waiting.length < this.config.PASSWORD_HASH_QUEUE) {
      // Woken by a finishing hash, which hands its slot over (running stays the same).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      throw new DomainError('COMMON.SERVICE_UNAVAILABLE', TOO_MANY_SIGN_INS, undefined, {
        retryAfterSeconds: this.drainSeconds(),
      });
    }
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.averageMs = 0.9 * this.averageMs + 0.1 * (performance.now() - started);
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  private drainSeconds(): number {
    const queued = this.waiting.length + this.running;
    const seconds = (queued * this.averageMs) / this.config.PASSWORD_HASH_CONCURRENCY / 1000;
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(seconds)));
  }
}
