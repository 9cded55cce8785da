import { type IncomingMessage, request as httpRequest } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type InternalHttpRoute,
  type InternalJsonReply,
  type InternalParams,
  type InternalQuery,
  errorBodySchema,
} from '@likeness/contracts';
import {
  APP_CONFIG,
  CORRELATION_HEADER,
  DomainError,
  INTERNAL_AUTH_HEADER,
  INTERNAL_ERROR_MESSAGE,
  INTERNAL_USER_HEADER,
  type PathParams,
  type QueryParams,
  UnsafePathError,
  currentCorrelationId,
  internalAuthToken,
  internalPath,
  parseInternalReply,
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

/** Media's JSON answers (an upload's list, an error) are small; more is not read. */
const MAX_JSON_REPLY_BYTES = 1024 * 1024;

export interface MediaCall<R extends InternalHttpRoute> {
  params?: InternalParams<R>;
  query?: InternalQuery<R>;
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

/** Media answered outside its contract: logged here, a plain internal error to the client. */
class ContractBrokenError extends Error {}

/**
 * Image bytes between the browser and media, streamed both ways over media's internal HTTP
 * port (NATS caps a message at 1 MB). Each call is a route of media's contract
 * (MediaInternalHttp): its path is built from the route's template with checked values, and
 * media's answer is checked against the route before the client sees any of it. The gateway
 * vouches for the user; media checks the token.
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

  /** Streams a bytes route's answer (status, safe headers, body) to the client. */
  async relayBytes<R extends InternalHttpRoute>(
    route: R,
    call: MediaCall<R>,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const response = await this.send(route, call);
    try {
      if (!isSuccess(response)) throw await errorOf(response);
      const contentType = mediaTypeOf(response.headers['content-type']);
      if (route.reply.type !== 'bytes' || !route.reply.contentTypes.includes(contentType)) {
        throw new ContractBrokenError(
          `answered ${response.statusCode} with content type ${JSON.stringify(contentType)}`,
        );
      }
    } catch (error) {
      response.resume();
      throw this.reported(route, error);
    }
    void reply.status(response.statusCode ?? 200);
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers[name];
      if (value !== undefined) void reply.header(name, value);
    }
    return reply.send(response);
  }

  /** Sends the call and gives its JSON reply, checked against the route's contract. */
  async json<R extends InternalHttpRoute>(route: R, call: MediaCall<R>): Promise<InternalJsonReply<R>> {
    const response = await this.send(route, call);
    try {
      if (!isSuccess(response)) throw await errorOf(response);
      if (route.reply.type !== 'json' || response.statusCode !== route.reply.status) {
        response.resume();
        throw new ContractBrokenError(`answered ${response.statusCode}`);
      }
      return parseInternalReply(route, await readJson(response));
    } catch (error) {
      throw this.reported(route, error);
    }
  }

  private reported(route: InternalHttpRoute, error: unknown): unknown {
    if (error instanceof DomainError) return error;
    this.logger.error(`media ${route.method} ${route.path} ${(error as Error).message}`);
    return new DomainError('COMMON.INTERNAL', INTERNAL_ERROR_MESSAGE);
  }

  private pathOf<R extends InternalHttpRoute>(route: R, call: MediaCall<R>): string {
    // The values were checked by the public route; checked again here against media's contract.
    const params = route.params ? route.params.safeParse(call.params ?? {}) : undefined;
    const query = route.query ? route.query.safeParse(call.query ?? {}) : undefined;
    if (params?.success === false || query?.success === false) {
      this.logger.warn(`media ${route.method} ${route.path}: a call outside the contract was refused`);
      throw new UnsafePathError('parameters outside the contract');
    }
    return internalPath(route.path, params?.data as PathParams | undefined, query?.data as QueryParams | undefined);
  }

  private send<R extends InternalHttpRoute>(route: R, call: MediaCall<R>): Promise<IncomingMessage> {
    const path = this.pathOf(route, call);
    const { userId, body, headers = {}, maxBodyBytes } = call;
    return new Promise((resolve, reject) => {
      const correlationId = currentCorrelationId();
      // Sent as built: no URL resolution against the base, which would normalise the path again.
      const outgoing = httpRequest({
        protocol: this.base.protocol,
        hostname: this.base.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: this.base.port,
        path,
        method: route.method,
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
        this.logger.warn(`media ${route.method} ${route.path} failed: ${error.message}`);
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

const isSuccess = (response: IncomingMessage) =>
  response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300;

/** Media's error answer, rebuilt from the contract's error body (its code picks the status). */
async function errorOf(response: IncomingMessage): Promise<Error> {
  const body = errorBodySchema.safeParse(await readJson(response).catch(() => undefined));
  if (!body.success) return new ContractBrokenError(`answered ${response.statusCode} without an error body`);
  // Media refuses our token, or a call without its user, only when the gateway is at fault.
  if (body.data.code === 'AUTH.UNAUTHENTICATED') {
    return new ContractBrokenError(`refused the internal call: ${body.data.message}`);
  }
  // Media's pixel budget says when to try again; the client hears it as Retry-After.
  const retryAfter = Number(response.headers['retry-after']);
  if (body.data.code === 'COMMON.RATE_LIMITED' && Number.isInteger(retryAfter) && retryAfter > 0) {
    return new DomainError('COMMON.RATE_LIMITED', body.data.message, body.data.issues, {
      retryAfterSeconds: retryAfter,
    });
  }
  return DomainError.fromBody(body.data);
}

function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/** A small JSON answer, read whole; more than MAX_JSON_REPLY_BYTES or no JSON at all is a broken contract. */
function readJson(response: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_JSON_REPLY_BYTES) {
        response.destroy();
        reject(new ContractBrokenError(`answered more than ${MAX_JSON_REPLY_BYTES} bytes of JSON`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('error', reject);
    response.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new ContractBrokenError(`answered ${response.statusCode} with a body that is not JSON`));
      }
    });
  });
}
