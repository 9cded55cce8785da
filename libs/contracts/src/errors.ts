import { z } from 'zod';

/**
 * Stable error codes. Services throw a code; only the gateway turns it into an HTTP status,
 * using the status named here. Codes survive a process hop, `instanceof` does not.
 */
export const ErrorCodes = {
  'COMMON.VALIDATION_FAILED': { status: 400 },
  'COMMON.NOT_FOUND': { status: 404 },
  'COMMON.RATE_LIMITED': { status: 429 },
  'COMMON.CSRF_REJECTED': { status: 403 },
  'COMMON.PAYLOAD_TOO_LARGE': { status: 413 },
  'COMMON.UNSUPPORTED_MEDIA_TYPE': { status: 415 },
  'COMMON.URI_TOO_LONG': { status: 414 },
  'COMMON.HEADERS_TOO_LARGE': { status: 431 },
  'COMMON.EXPECTATION_FAILED': { status: 417 },
  'COMMON.REQUEST_TIMEOUT': { status: 408 },
  'COMMON.SERVICE_UNAVAILABLE': { status: 503 },
  'COMMON.INTERNAL': { status: 500 },
  'AUTH.USERNAME_TAKEN': { status: 409 },
  'AUTH.EMAIL_TAKEN': { status: 409 },
  'AUTH.INVALID_CREDENTIALS': { status: 401 },
  'AUTH.UNAUTHENTICATED': { status: 401 },
  'AUTH.SESSION_EXPIRED': { status: 401 },
  'AUTH.FORBIDDEN': { status: 403 },
  /** A password reset token that is unknown, used, expired or superseded. */
  'AUTH.RESET_TOKEN_INVALID': { status: 400 },
  /** The password that confirms a change or a deletion is not the account's (the issue names the field). */
  'AUTH.WRONG_PASSWORD': { status: 403 },
  'BILLING.INSUFFICIENT_CREDITS': { status: 402 },
  'BILLING.PACKAGE_NOT_FOUND': { status: 404 },
  'BILLING.PAYMENT_NOT_FOUND': { status: 404 },
  'BILLING.PAYMENT_DECLINED': { status: 402 },
  'BILLING.PAYMENT_PENDING': { status: 409 },
  'BILLING.HOLD_NOT_FOUND': { status: 404 },
  'BILLING.HOLD_RELEASED': { status: 409 },
  'BILLING.WEBHOOK_INVALID': { status: 400 },
  'BILLING.PROVIDER_UNAVAILABLE': { status: 502 },
  'MEDIA.TOO_MANY_FILES': { status: 400 },
  'MEDIA.UPLOAD_LIMIT_REACHED': { status: 409 },
  'MEDIA.FILE_TOO_LARGE': { status: 413 },
  'MEDIA.INVALID_IMAGE': { status: 400 },
  'MEDIA.IMAGE_IN_USE': { status: 409 },
  'MEDIA.UNSUPPORTED_URL': { status: 400 },
  'MEDIA.LINK_EXPIRED': { status: 410 },
  'TRAINING.ALREADY_TRAINING': { status: 409 },
  'TRAINING.MODEL_TRAINING': { status: 409 },
  'TRAINING.MODEL_NOT_READY': { status: 409 },
  'TRAINING.WEBHOOK_INVALID': { status: 400 },
  'TRAINING.PROVIDER_UNAVAILABLE': { status: 502 },
  'GENERATION.WEBHOOK_INVALID': { status: 400 },
} as const satisfies Record<string, { status: number }>;

export type ErrorCode = keyof typeof ErrorCodes;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ErrorCodes, value);
}

export function statusOf(code: ErrorCode): number {
  return ErrorCodes[code].status;
}

export const fieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

/** The body of every error response, over NATS and over HTTP alike. */
export const errorBodySchema = z.object({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  issues: z.array(fieldIssueSchema).optional(),
  /** When a refusal ends (rate limits, a busy service); the gateway also sends it as `Retry-After`. */
  retryAfterSeconds: z.number().int().positive().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Turns zod issues into field messages a person can read; the first one leads. */
export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}
