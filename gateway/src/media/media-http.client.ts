import { type IncomingMessage, request as httpRequest } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  APP_CONFIG,
  CORRELATION_HEADER,
  DomainError,
  INTERNAL_AUTH_HEADER,
  INTERNAL_USER_HEADER,
  currentCorrelationId,
  internalAuthToken,
} from '@likeness/nest-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { GatewayConfig } from '../gateway.config.js';

/** Headers of media's answer a browser may see; everything else stays inside. */
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'content-disposition',
  'cache-control',
  'x-content-type-options',
  'etag',
  'last-modified',
] as const;

export interface MediaCall {
  method: 'GET' | 'POST';
  /** Path and query on media's HTTP port, e.g. `/internal/files/users/1/...?...`. */
  path: string;
  userId?: number;
  body?: Readable;
  headers?: Record<string, string>;
  /** The request body may not exceed this many bytes (counted as it streams). */
  maxBodyBytes?: number;
}

export const MEDIA_UNAVAILABLE = 'Images are unavailable right now. Please try again in a moment.';

class BodyTooLargeError extends DomainError {
  constructor() {
    super('COMMON.PAYLOAD_TOO_LARGE', 'The upload is too large. Send at most 20 images of 5 MB each.');
  }
}

/**
 * Image bytes between the browser and media, streamed both ways over media's internal HTTP
 * port (NATS caps a message at 1 MB). The gateway vouches for the user; media checks the token.
 */
@Injectable()
export class MediaHttpClient {
  private readonly logger = new Logger(MediaHttpClient.name);
  private readonly base: URL;
  private readonly token: string;

  constructor(@Inject(APP_CONFIG) config: GatewayConfig) {
    this.base = new URL(config.MEDIA_URL);
    this.token = internalAuthToken(config.MEDIA_SECRET);
  }

  /** Sends the call and relays media's answer (status, safe headers, streamed body) to the client. */
  async relay(call: MediaCall, reply: FastifyReply): Promise<FastifyReply> {
    const response = await this.send(call);
    void reply.status(response.statusCode ?? 502);
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers[name];
      if (value !== undefined) void reply.header(name, value);
    }
    return reply.send(response);
  }

  private send({ method, path, userId, body, headers = {}, maxBodyBytes }: MediaCall): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const correlationId = currentCorrelationId();
      const outgoing = httpRequest(new URL(path, this.base), {
        method,
        headers: {
          ...headers,
          [INTERNAL_AUTH_HEADER]: this.token,
          ...(userId !== undefined ? { [INTERNAL_USER_HEADER]: String(userId) } : {}),
          ...(correlationId ? { [CORRELATION_HEADER]: correlationId } : {}),
        },
      });
      let failure: Error | undefined;
      outgoing.on('response', resolve);
      outgoing.on('error', (error) => {
        if (failure) return reject(failure);
        this.logger.warn(`media ${method} ${path.split('?')[0]} failed: ${error.message}`);
        reject(new DomainError('COMMON.SERVICE_UNAVAILABLE', MEDIA_UNAVAILABLE));
      });
      if (!body) {
        outgoing.end();
        return;
      }
      let received = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          if (maxBodyBytes !== undefined && received > maxBodyBytes) callback((failure = new BodyTooLargeError()));
          else callback(null, chunk);
        },
      });
      pipeline(body, counter, outgoing).catch((error: Error) => {
        outgoing.destroy(failure ?? error);
      });
    });
  }
}
