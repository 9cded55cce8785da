import { type ErrorBody, type ErrorCode, statusOf } from '@likeness/contracts';
import {
  DomainError,
  INTERNAL_ERROR_MESSAGE,
  RpcRequestInvalidError,
  isExpectedError,
  toErrorBody,
} from '@likeness/nest-kit';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';

const logger = new Logger('Http');

const NOT_VALID = 'The request is not valid.';
export const JSON_ONLY = 'Send the request body as JSON (Content-Type: application/json).';

/** Messages for what the HTTP layer itself refuses, in words a person understands. */
const HTTP_REFUSALS: Readonly<Record<number, { code: ErrorCode; message: string }>> = {
  400: { code: 'COMMON.VALIDATION_FAILED', message: 'The request could not be read. Send a JSON object.' },
  404: { code: 'COMMON.NOT_FOUND', message: 'There is nothing at this address.' },
  405: { code: 'COMMON.NOT_FOUND', message: 'This address does not accept that method.' },
  408: { code: 'COMMON.REQUEST_TIMEOUT', message: 'The request took too long to arrive. Please try again.' },
  413: { code: 'COMMON.PAYLOAD_TOO_LARGE', message: 'The request is too large.' },
  414: { code: 'COMMON.URI_TOO_LONG', message: 'The address is too long.' },
  415: { code: 'COMMON.UNSUPPORTED_MEDIA_TYPE', message: JSON_ONLY },
  417: { code: 'COMMON.EXPECTATION_FAILED', message: 'The request expects something this server does not do.' },
  429: { code: 'COMMON.RATE_LIMITED', message: 'Too many requests. Please wait a moment and try again.' },
  431: { code: 'COMMON.HEADERS_TOO_LARGE', message: 'The request headers are too large.' },
};

/** The body for an HTTP status the framework chose; its code's own status is what the client gets. */
export function fromHttpStatus(status: number): ErrorBody {
  const refusal = HTTP_REFUSALS[status];
  if (refusal) return { status: statusOf(refusal.code), ...refusal };
  return status < 500
    ? { status: 400, code: 'COMMON.VALIDATION_FAILED', message: NOT_VALID }
    : { status: 500, code: 'COMMON.INTERNAL', message: INTERNAL_ERROR_MESSAGE };
}

/** Any error as the status and body a client sees; nothing internal leaks. */
export function toHttpError(error: unknown): ErrorBody {
  if (error instanceof RpcRequestInvalidError || error instanceof ZodError) {
    // Fields the gateway built, not ones the user typed (those are checked by the Zod pipes,
    // whose errors name them): a user learns only that the request was refused.
    logger.warn(`A request was refused by a contract check: ${error.message}`);
    return { status: statusOf('COMMON.VALIDATION_FAILED'), code: 'COMMON.VALIDATION_FAILED', message: NOT_VALID };
  }
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
  // A refusal that ends says when: the gateway's limits, and those of a service (over NATS).
  if (body.retryAfterSeconds) void reply.header('Retry-After', String(body.retryAfterSeconds));
  void reply.status(body.status).type('application/json').send(body);
}

/** Maps every exception raised in a route to the error body and status the contracts name. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(http.getResponse<FastifyReply>(), http.getRequest<FastifyRequest>(), exception);
  }
}
