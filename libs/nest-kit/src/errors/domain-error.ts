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
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: FieldIssue[],
  ) {
    super(message);
    this.name = 'DomainError';
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
    };
  }

  static fromBody(body: ErrorBody): DomainError {
    return isErrorCode(body.code)
      ? new DomainError(body.code, body.message, body.issues)
      : new DomainError('COMMON.INTERNAL', 'Something went wrong on our side. Please try again.');
  }

  static validation(error: ZodError): DomainError {
    const issues = toFieldIssues(error);
    return new DomainError('COMMON.VALIDATION_FAILED', issues[0]?.message ?? 'The request is not valid.', issues);
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
