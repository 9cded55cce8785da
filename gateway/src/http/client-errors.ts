import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorBody, type ErrorCode, statusOf } from '@likeness/contracts';
import { DomainError, type Logger } from '@likeness/nest-kit';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { fromHttpStatus, sendError } from './http-errors.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** What Node's HTTP parser says when it refuses a request (see the 'clientError' event). */
interface ClientError extends Error {
  code?: string;
  bytesParsed?: number;
  rawPacket?: Buffer;
}

/** How long a refused client may take to close its side before the socket is destroyed. */
const CLOSE_GRACE_MS = 5_000;

/**
 * Answers requests Node's HTTP parser refuses before Fastify sees them (a request line or
 * headers too long, a malformed request line, a bad Content-Length): the contract's error body
 * and the security headers, written straight to the socket, which is then closed. Fastify's own
 * answer would be its error format with no security headers.
 */
export function clientErrorHandler(logger: Logger) {
  return function onClientError(parserError: Error, socket: Socket): void {
    const error = parserError as ClientError;
    // A reset connection has no one to answer; whatever is left of it goes.
    if (error.code === 'ECONNRESET' || socket.destroyed) {
      socket.destroy();
      return;
    }
    const body = clientErrorBody(error);
    logger.info({ code: error.code, status: body.status }, 'refused a request the HTTP parser could not read');
    // Never in the middle of an answer already being written on this connection.
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    socket.setTimeout(CLOSE_GRACE_MS, () => socket.destroy());
    socket.end(rawHttpResponse(body, { withBody: !isHeadRequest(error) }));
  };
}

/**
 * Answers a request whose Expect header asks for more than `100-continue` (which Node handles).
 * Without this, Node answers 417 itself: an empty body, none of the security headers. The body
 * the client may still send is not read; the connection closes after the answer.
 */
export function expectationFailedHandler(logger: Logger) {
  return function onCheckExpectation(request: IncomingMessage, response: ServerResponse): void {
    const body = fromHttpStatus(417);
    logger.info(
      { expect: request.headers.expect, status: body.status },
      'refused a request with an unknown expectation',
    );
    const json = JSON.stringify(body);
    response.writeHead(body.status, { ...jsonHeaders(json), connection: 'close' });
    response.end(json);
  };
}

/** The status and body for what the parser refused. */
export function clientErrorBody(error: ClientError): ErrorBody {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return fromHttpStatus(408);
    case 'HPE_HEADER_OVERFLOW':
      return fromHttpStatus(isRequestLineOverflow(error) ? 414 : 431);
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return body('COMMON.VALIDATION_FAILED', 'The request has an invalid Content-Length.');
    default:
      return body('COMMON.VALIDATION_FAILED', 'The request could not be read.');
  }
}

/**
 * Fastify's own refusals before a route runs (a malformed percent-encoding in the URL, a path
 * parameter past maxParamLength): hooks have not run, so the headers are set here.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void reply.headers({ ...SECURITY_HEADERS, 'cache-control': 'no-store' });
  const refusal =
    error.code === 'FST_ERR_BAD_URL'
      ? new DomainError('COMMON.VALIDATION_FAILED', 'The address is not valid.')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new DomainError('COMMON.URI_TOO_LONG', 'The address is too long.')
        : error;
  sendError(reply, request, refusal);
}

/**
 * The parser counts the request line against the header size limit. When the overflowing
 * packet is still on the first line (a method, a space, then no line break yet), the address
 * is what was too long.
 */
function isRequestLineOverflow(error: ClientError): boolean {
  const packet = error.rawPacket;
  if (!packet) return false;
  const parsed = packet.subarray(0, Math.min(error.bytesParsed ?? packet.length, 64)).toString('latin1');
  return (
    /^[A-Z]{3,10} [^\r\n]*$/.test(parsed) && !packet.subarray(0, error.bytesParsed ?? packet.length).includes('\n')
  );
}

function body(code: ErrorCode, message: string): ErrorBody {
  return { status: statusOf(code), code, message };
}

/** The headers of an error answer written outside Fastify: the security headers, JSON, never cached. */
function jsonHeaders(json: string): Record<string, string | number> {
  return {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    'cache-control': 'no-store',
  };
}

/**
 * Whether the refused request is a HEAD, which must be answered without a body (a client would
 * read the body as the start of a broken next answer). Known when the refusal came in the
 * request's first packet, which starts with its method; a later packet cannot tell.
 */
function isHeadRequest(error: ClientError): boolean {
  return error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
}

function rawHttpResponse(error: ErrorBody, { withBody }: { withBody: boolean }): string {
  const json = JSON.stringify(error);
  const headers = { ...jsonHeaders(json), connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${lines.join('\r\n')}\r\n\r\n${withBody ? json : ''}`;
}
