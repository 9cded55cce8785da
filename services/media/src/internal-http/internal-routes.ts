import { type InternalHttpRoute, MediaInternalHttp } from '@likeness/contracts';
import {
  CORRELATION_HEADER,
  DomainError,
  INTERNAL_AUTH_HEADER,
  INTERNAL_USER_HEADER,
  isExpectedError,
  runWithCorrelation,
  internalUserId,
  isInternalAuthToken,
  fastifyRouteUrl,
  namedRouteParams,
  parseInternalReply,
  toErrorBody,
} from '@likeness/nest-kit';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AvatarsZipService } from '../avatars/avatars-zip.service.js';
import { FilesService, type ServedImage } from '../files/files.service.js';
import { ImageFormatterService } from '../formatter/image-formatter.service.js';
import { PixelBudgetExceededError } from '../limits/pixel-budget.js';
import type { MediaConfig } from '../media.config.js';
import { IMAGE_NOT_FOUND } from '../storage/objects.js';
import { SelfieUploadService, UploadTooLargeError } from '../selfies/selfie-upload.service.js';

export const INTERNAL_PREFIX = '/internal';

const { signedFile, sharedAvatar, formatImage, uploadSelfies, avatarsZip } = MediaInternalHttp;

interface InternalRoutesOptions {
  secret: string;
  files: FilesService;
  formatter: ImageFormatterService;
  uploads: SelfieUploadService;
  zips: AvatarsZipService;
}

const logger = new Logger('InternalHttp');

/**
 * Media's side of the image bytes the gateway streams (NATS caps a message at 1 MB): plain
 * Fastify routes on the health port, because uploads must reach busboy as an untouched
 * stream. Each is a route of the contract (MediaInternalHttp), which the gateway builds its
 * calls from. Only our own apps may call them (a token derived from MEDIA_SECRET); errors go
 * out as the contract's error body, which the gateway checks and rebuilds.
 */
export async function registerInternalRoutes(app: NestFastifyApplication, config: MediaConfig): Promise<void> {
  const options: InternalRoutesOptions = {
    secret: config.MEDIA_SECRET,
    files: app.get(FilesService),
    formatter: app.get(ImageFormatterService),
    uploads: app.get(SelfieUploadService),
    zips: app.get(AvatarsZipService),
  };
  await app
    .getHttpAdapter()
    .getInstance()
    .register(internalRoutes, { prefix: INTERNAL_PREFIX, ...options });
}

async function internalRoutes(fastify: FastifyInstance, options: InternalRoutesOptions): Promise<void> {
  const { secret, files, formatter, uploads, zips } = options;
  // Bodies are left unread for the handler: the upload streams into busboy, the rest have none.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null));

  fastify.addHook('onRequest', async (request, reply) => {
    if (!isInternalAuthToken(secret, request.headers[INTERNAL_AUTH_HEADER])) {
      return sendError(reply, new DomainError('AUTH.UNAUTHENTICATED', 'Only Likeness services may call this.'));
    }
    return undefined;
  });
  // The gateway's correlation id, so these log lines join the request's others.
  fastify.addHook('preHandler', (request, _reply, done) =>
    runWithCorrelation(request.headers[CORRELATION_HEADER] as string | undefined, done),
  );
  fastify.setErrorHandler((error, request, reply) => sendError(reply, error, request));
  fastify.setNotFoundHandler((_request, reply) =>
    sendError(reply, new DomainError('COMMON.NOT_FOUND', 'There is nothing here.')),
  );

  fastify.route({
    method: signedFile.method,
    url: routeUrl(signedFile),
    handler: async (request, reply) => {
      // A key or query of another shape was never signed: not found, like a wrong signature.
      const params = signedFile.params.safeParse(namedRouteParams(signedFile, request.params as RouteParams));
      const query = signedFile.query.safeParse(request.query);
      if (!params.success || !query.success) throw new DomainError('COMMON.NOT_FOUND', IMAGE_NOT_FOUND);
      return sendImage(reply, await files.openSigned(params.data.key, query.data.expires, query.data.signature));
    },
  });

  fastify.route({
    method: sharedAvatar.method,
    url: routeUrl(sharedAvatar),
    handler: async (request, reply) => {
      const params = sharedAvatar.params.safeParse(namedRouteParams(sharedAvatar, request.params as RouteParams));
      if (!params.success) throw new DomainError('COMMON.NOT_FOUND', IMAGE_NOT_FOUND);
      return sendImage(reply, await files.openShared(params.data.token));
    },
  });

  fastify.route({
    method: formatImage.method,
    url: routeUrl(formatImage),
    handler: async (request, reply) => {
      const converted = await formatter.convert(userOf(request), request.query);
      return reply
        .header('content-type', converted.contentType)
        .header('content-disposition', `attachment; filename="${converted.filename}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(converted.body);
    },
  });

  fastify.route({
    method: avatarsZip.method,
    url: routeUrl(avatarsZip),
    handler: async (request, reply) => {
      const query = avatarsZip.query.safeParse(request.query);
      if (!query.success) throw DomainError.validation(query.error);
      const zip = await zips.open(userOf(request), query.data);
      // A client gone mid-way closes the response; Fastify then destroys the zip, which stops reading storage.
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${zip.filename}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(zip.stream);
    },
  });

  fastify.route({
    method: uploadSelfies.method,
    url: routeUrl(uploadSelfies),
    handler: async (request, reply) => {
      try {
        const uploaded = await uploads.upload(userOf(request), request.raw);
        return reply.code(uploadSelfies.reply.status).send(parseInternalReply(uploadSelfies, uploaded));
      } catch (error) {
        // The rest of an oversized upload is not read: the answer ends the connection.
        if (error instanceof UploadTooLargeError) reply.header('connection', 'close');
        throw error;
      }
    },
  });
}

type RouteParams = Record<string, string | undefined>;

/** Registered under INTERNAL_PREFIX, so the route's path without it. */
const routeUrl = (route: InternalHttpRoute) => fastifyRouteUrl(route).slice(INTERNAL_PREFIX.length);

/** The user the gateway calls for; a missing header is a caller's bug, answered like no session. */
function userOf(request: FastifyRequest): number {
  const userId = internalUserId(request.headers[INTERNAL_USER_HEADER]);
  if (userId === undefined) throw new DomainError('AUTH.UNAUTHENTICATED', 'This call needs a signed-in user.');
  return userId;
}

function sendImage(reply: FastifyReply, { object, cacheControl }: ServedImage): FastifyReply {
  return reply
    .header('content-type', object.contentType)
    .header('content-length', object.size)
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', 'inline')
    .send(object.body);
}

/** The contract's error body; anything unexpected is logged here and reveals nothing there. */
function sendError(reply: FastifyReply, error: unknown, request?: FastifyRequest): FastifyReply {
  if (!isExpectedError(error)) {
    const failure = error instanceof Error ? error : new Error(String(error));
    logger.error(
      `${request?.method ?? ''} ${request?.url.split('?')[0] ?? ''} failed: ${failure.message}`,
      failure.stack,
    );
  }
  const body = toErrorBody(error);
  // The gateway relays it, so a person (or their browser) knows when to try again.
  if (error instanceof PixelBudgetExceededError) void reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(body.status).header('content-type', 'application/json; charset=utf-8').send(body);
}
