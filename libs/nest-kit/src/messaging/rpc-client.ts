import { randomUUID } from 'node:crypto';
import { type RpcDefinition, type RpcRequestInput, type RpcResponse, errorBodySchema } from '@likeness/contracts';
import { headers, type NatsConnection, RequestError, TimeoutError } from '@nats-io/transport-node';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, INTERNAL_ERROR_MESSAGE } from '../errors/domain-error.js';
import { parseReply } from './rpc-handler.decorator.js';
import { CORRELATION_HEADER, currentCorrelationId } from '../logging/correlation.js';
import { NATS_CONNECTION, NATS_SETTINGS, type NatsSettings, namespaced } from './nats.js';

export interface RpcCallOptions {
  timeoutMs?: number;
}

export const RPC_TIMEOUT_MS = Symbol('RPC_TIMEOUT_MS');

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
    const request = definition.request.safeParse(payload);
    if (!request.success) throw DomainError.validation(request.error);
    const data = request.data;
    const messageHeaders = headers();
    const correlationId = currentCorrelationId();
    if (correlationId) messageHeaders.set(CORRELATION_HEADER, correlationId);

    let reply;
    try {
      reply = await this.nats.request(
        namespaced(this.settings, definition.subject),
        JSON.stringify({ pattern: definition.subject, data, id: randomUUID() }),
        { timeout: options.timeoutMs ?? this.defaultTimeoutMs, headers: messageHeaders },
      );
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
