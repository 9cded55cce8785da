import { type ErrorBody, statusOf } from '@likeness/contracts';
import { DomainError, INTERNAL_ERROR_MESSAGE, isExpectedError, toErrorBody } from '@likeness/nest-kit';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

const logger = new Logger('Http');

/** Messages for what the HTTP layer itself refuses, in words a person understands. */
function fromHttpStatus(status: number): ErrorBody {
  switch (status) {
    case 400:
      return {
        status,
        code: 'COMMON.VALIDATION_FAILED',
        message: 'The request could not be read. Send a JSON object.',
      };
    case 404:
      return { status, code: 'COMMON.NOT_FOUND', message: 'There is nothing at this address.' };
    case 405:
      return { status, code: 'COMMON.NOT_FOUND', message: 'This address does not accept that method.' };
    case 413:
      return { status, code: 'COMMON.PAYLOAD_TOO_LARGE', message: 'The request is too large.' };
    case 415:
      return {
        status,
        code: 'COMMON.VALIDATION_FAILED',
        message: 'Send the request body as JSON (Content-Type: application/json).',
      };
    case 429:
      return { status, code: 'COMMON.RATE_LIMITED', message: 'Too many requests. Please wait a moment and try again.' };
    default:
      return status < 500
        ? { status, code: 'COMMON.VALIDATION_FAILED', message: 'The request is not valid.' }
        : { status: 500, code: 'COMMON.INTERNAL', message: INTERNAL_ERROR_MESSAGE };
  }
}

/** Any error as the status and body a client sees; nothing internal leaks. */
export function toHttpError(error: unknown): ErrorBody {
  if (isExpectedError(error)) {
    const body = toErrorBody(error);
    return { ...body, status: error instanceof DomainError ? statusOf(error.code) : body.status };
  }
  if (error instanceof HttpException) return fromHttpStatus(error.getStatus());
  const fastifyStatus = (error as FastifyError | undefined)?.statusCode;
  if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500)
    return fromHttpStatus(fastifyStatus);
  return fromHttpStatus(500);
}

export function sendError(reply: FastifyReply, request: FastifyRequest, error: unknown): void {
  const body = toHttpError(error);
  if (body.status >= 500) {
    const failure = error instanceof Error ? error : new Error(String(error));
    logger.error(`${request.method} ${request.url} failed: ${failure.message}`, failure.stack);
  }
  if (body.code === 'COMMON.RATE_LIMITED' && error instanceof RateLimitedError) {
    void reply.header('Retry-After', String(error.retryAfterSeconds));
  }
  void reply.status(body.status).type('application/json').send(body);
}

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    super(
      'COMMON.RATE_LIMITED',
      `Too many attempts. Please wait ${minutes === 1 ? 'a minute' : `${minutes} minutes`} and try again.`,
    );
  }
}

/** Maps every exception raised in a route to the error body and status the contracts name. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(http.getResponse<FastifyReply>(), http.getRequest<FastifyRequest>(), exception);
  }
}
