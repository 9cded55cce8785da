import {
  type ErrorBody,
  type ErrorCode,
  type FieldIssue,
  isErrorCode,
  statusOf,
  toFieldIssues,
} from '@likeness/contracts';
import { ZodError } from 'zod';

/**
 * An error a caller is meant to see: a stable code and a message in words a user understands.
 * It crosses process boundaries as an ErrorBody and is rebuilt on the other side.
 */
export class DomainError extends Error {
  /** A refusal that ends: how long until trying again makes sense (the gateway's `Retry-After`). */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: FieldIssue[],
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    if (options.retryAfterSeconds !== undefined)
      this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds));
  }

  get status(): number {
    return statusOf(this.code);
  }

  toBody(): ErrorBody {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.issues ? { issues: this.issues } : {}),
      ...(this.retryAfterSeconds ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
    };
  }

  static fromBody(body: ErrorBody): DomainError {
    return isErrorCode(body.code)
      ? new DomainError(
          body.code,
          body.message,
          body.issues,
          body.retryAfterSeconds ? { retryAfterSeconds: body.retryAfterSeconds } : {},
        )
      : new DomainError('COMMON.INTERNAL', 'Something went wrong on our side. Please try again.');
  }

  static validation(error: ZodError): DomainError {
    const issues = toFieldIssues(error);
    return new DomainError('COMMON.VALIDATION_FAILED', issues[0]?.message ?? 'The request is not valid.', issues);
  }
}

/**
 * Too many of something in too short a time (429): says when to try again, in minutes a person
 * reads and in seconds for `Retry-After`. Services throw it too: it crosses NATS like any
 * DomainError, its wait included.
 */
export class RateLimitedError extends DomainError {
  declare readonly retryAfterSeconds: number;

  /** `what` is counted: "attempts", "uploads"... */
  constructor(retryAfterSeconds: number, what = 'attempts') {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    const minutes = Math.ceil(seconds / 60);
    super(
      'COMMON.RATE_LIMITED',
      `Too many ${what}. Please wait ${minutes === 1 ? 'a minute' : `${minutes} minutes`} and try again.`,
      undefined,
      { retryAfterSeconds: seconds },
    );
  }
}

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';

/** Anything thrown, as the body a caller may see; unknown failures reveal nothing. */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof DomainError) return error.toBody();
  if (error instanceof ZodError) return DomainError.validation(error).toBody();
  return { status: 500, code: 'COMMON.INTERNAL', message: INTERNAL_ERROR_MESSAGE };
}

export function isExpectedError(error: unknown): boolean {
  return error instanceof DomainError || error instanceof ZodError;
}
