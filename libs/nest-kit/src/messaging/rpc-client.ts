import { context } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import {
  RPC_CALLER_ID_HEADER,
  RPC_CALLER_ROLE_HEADER,
  type RpcDefinition,
  type RpcRequestInput,
  type RpcResponse,
  errorBodySchema,
  safeParseRequest,
} from '@likeness/contracts';
import { headers, type NatsConnection, RequestError, TimeoutError } from '@nats-io/transport-node';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ZodError } from 'zod';
import { DomainError, INTERNAL_ERROR_MESSAGE } from '../errors/domain-error.js';
import { parseReply } from './rpc-handler.decorator.js';
import { inMessagingSpan, injectTraceHeaders } from '../tracing/trace-context.js';
import { CORRELATION_HEADER, type RpcCaller, currentCorrelationId } from '../logging/correlation.js';
import { NATS_CONNECTION, NATS_SETTINGS, type NatsSettings, namespaced } from './nats.js';

export interface RpcCallOptions {
  timeoutMs?: number;
  /** The verified user the call is made for; required by definitions with a `requiredRole`. */
  caller?: RpcCaller;
}

export const RPC_TIMEOUT_MS = Symbol('RPC_TIMEOUT_MS');

/** Room left in a message for its headers (the correlation id is at most 100 characters). */
export const RPC_HEADER_ALLOWANCE_BYTES = 1024;

/** A request the bus cannot carry (past NATS's max_payload): the caller sent too much, the service never sees it. */
export class RpcRequestTooLargeError extends DomainError {
  constructor(
    readonly subject: string,
    readonly bytes: number,
  ) {
    super('COMMON.PAYLOAD_TOO_LARGE', 'The request is too large.');
    this.name = 'RpcRequestTooLargeError';
  }
}

/**
 * A request refused by the caller's own check, before it was sent. It reads like any validation
 * error between services; the gateway knows its fields are ones it built (a user id, a cookie's
 * token, a webhook's raw body), not ones a user typed, and keeps them out of its answers.
 */
export class RpcRequestInvalidError extends DomainError {
  constructor(
    readonly subject: string,
    error: ZodError,
  ) {
    const { message, issues } = DomainError.validation(error);
    super('COMMON.VALIDATION_FAILED', message, issues);
    this.name = 'RpcRequestInvalidError';
  }
}

/**
 * Calls another service over NATS request/reply. The definition fixes subject and types, so a
 * wrong subject or payload does not compile; both ends validate with the contract's schemas.
 * Speaks the packet format of Nest's NATS transport: `{pattern, data, id}` in,
 * `{id, response | err, isDisposed}` out.
 */
@Injectable()
export class RpcClient {
  private readonly logger = new Logger(RpcClient.name);

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(NATS_SETTINGS) private readonly settings: NatsSettings,
    @Inject(RPC_TIMEOUT_MS) private readonly defaultTimeoutMs: number,
  ) {}

  async call<D extends RpcDefinition>(
    definition: D,
    payload: RpcRequestInput<D>,
    options: RpcCallOptions = {},
  ): Promise<RpcResponse<D>> {
    const request = safeParseRequest(definition.request, payload);
    if (!request.success) throw new RpcRequestInvalidError(definition.subject, request.error);
    const data = request.data;
    const messageHeaders = headers();
    const correlationId = currentCorrelationId();
    if (correlationId) messageHeaders.set(CORRELATION_HEADER, correlationId);
    if (options.caller) {
      messageHeaders.set(RPC_CALLER_ID_HEADER, String(options.caller.userId));
      messageHeaders.set(RPC_CALLER_ROLE_HEADER, options.caller.role);
    }

    const message = Buffer.from(JSON.stringify({ pattern: definition.subject, data, id: randomUUID() }));
    if (!fitsTheBus(this.nats, message.length)) {
      this.logger.warn(`A ${definition.subject} request of ${message.length} bytes was refused: too large for NATS`);
      throw new RpcRequestTooLargeError(definition.subject, message.length);
    }

    let reply;
    try {
      reply = await inMessagingSpan(`rpc ${definition.subject}`, 'client', context.active(), definition.subject, () => {
        injectTraceHeaders(messageHeaders);
        return this.nats.request(namespaced(this.settings, definition.subject), message, {
          timeout: options.timeoutMs ?? this.defaultTimeoutMs,
          headers: messageHeaders,
        });
      });
    } catch (error) {
      throw toUnavailable(definition.subject, error);
    }

    const packet = reply.json<{ response?: unknown; err?: unknown }>();
    if (packet.err !== undefined && packet.err !== null) {
      const body = errorBodySchema.safeParse(packet.err);
      throw body.success
        ? DomainError.fromBody(body.data)
        : new DomainError('COMMON.INTERNAL', 'The service failed to answer.');
    }
    try {
      return parseReply(definition, packet.response) as RpcResponse<D>;
    } catch (error) {
      this.logger.error((error as Error).message);
      throw new DomainError('COMMON.INTERNAL', INTERNAL_ERROR_MESSAGE);
    }
  }
}

/** Whether a message of `bytes` (and its headers) is within the server's max_payload. */
export function fitsTheBus(nats: Pick<NatsConnection, 'info'>, bytes: number): boolean {
  const maxPayload = nats.info?.max_payload;
  return maxPayload === undefined || bytes + RPC_HEADER_ALLOWANCE_BYTES <= maxPayload;
}

function toUnavailable(subject: string, error: unknown): DomainError {
  const service = subject.split('.')[0] ?? 'a service';
  if (error instanceof RequestError && error.isNoResponders()) {
    return new DomainError(
      'COMMON.SERVICE_UNAVAILABLE',
      `The ${service} service is not available right now. Please try again shortly.`,
    );
  }
  if (error instanceof TimeoutError || (error instanceof RequestError && error.cause instanceof TimeoutError)) {
    return new DomainError(
      'COMMON.SERVICE_UNAVAILABLE',
      `The ${service} service took too long to answer. Please try again.`,
    );
  }
  return new DomainError(
    'COMMON.SERVICE_UNAVAILABLE',
    'Our services cannot be reached right now. Please try again shortly.',
  );
}
