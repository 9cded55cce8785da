import fastifyCookie from '@fastify/cookie';
import { type Logger, PinoNestLogger, createLogger, logFormat } from '@likeness/nest-kit';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from './gateway.config.js';
import { GatewayModule } from './gateway.module.js';
import { closeServer, metricsUrl, startMetricsServer } from './health/metrics-server.js';
import { registerBodyTypes } from './http/body-types.js';
import { registerJsonCompression } from './http/compress-json.js';
import { clientErrorHandler, expectationFailedHandler, frameworkErrorHandler } from './http/client-errors.js';
import { sendError } from './http/http-errors.js';
import {
  registerAccessLog,
  registerCorrelation,
  registerCsrfProtection,
  registerCloseUnreadBodies,
  registerNoStoreByDefault,
} from './http/request-hooks.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerRequestMetrics } from './http/request-metrics.js';
import { registerSiteIndex } from './http/site-index.js';
import { registerStaticSpa } from './http/static-spa.js';
import { registerMediaFileRoutes } from './media/media-file.routes.js';
import { MediaHttpClient } from './media/media-http.client.js';

/** JSON bodies larger than this are refused (uploads will use multipart with their own limits). */
const BODY_LIMIT_BYTES = 1024 * 1024;
const MAX_PARAM_LENGTH = 200;
const MAX_HEADER_BYTES = 16 * 1024;

export async function createGatewayApp(
  config: GatewayConfig,
  logger: Logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL, format: logFormat(config) }),
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    trustProxy: trustProxyOf(config.TRUST_PROXY),
    bodyLimit: BODY_LIMIT_BYTES,
    // Path parameters are ids and uuids; Fastify answers a longer one 414 (frameworkErrors below).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // The request line and headers together (cookies included); past it Node refuses the request.
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler: clientErrorHandler(logger),
    frameworkErrors: (error: FastifyError, request: unknown, reply: unknown) =>
      frameworkErrorHandler(error, request as FastifyRequest, reply as FastifyReply),
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config), adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
    // Webhook signatures cover the exact bytes received.
    rawBody: true,
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.server.on('checkExpectation', expectationFailedHandler(logger));
  // Every answer carries them, refusals by the hooks below included.
  registerSecurityHeaders(fastify);
  registerNoStoreByDefault(fastify);
  registerCloseUnreadBodies(fastify);
  registerCorrelation(fastify);
  registerAccessLog(fastify, logger);
  registerRequestMetrics(fastify);
  registerCsrfProtection(fastify, config.PUBLIC_ORIGIN);
  registerBodyTypes(fastify);
  registerJsonCompression(fastify);
  await app.register(fastifyCookie);
  // Errors Fastify raises before a route runs (unreadable JSON, a body too large).
  fastify.setErrorHandler((error, request, reply) => sendError(reply, request, error));
  // Uploads stream through untouched to media, which parses them with its own limits.
  fastify.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  registerMediaFileRoutes(fastify, app.get(MediaHttpClient));
  registerSiteIndex(fastify);
  await registerStaticSpa(fastify, config.STATIC_DIR, { publicUrl: config.PUBLIC_URL });
  const metricsServer = await startMetricsServer(config.METRICS_HOST, config.METRICS_PORT, logger);
  fastify.addHook('onClose', () => closeServer(metricsServer));
  try {
    await app.listen(config.PORT, config.HOST);
  } catch (error) {
    await closeServer(metricsServer);
    throw error;
  }
  logger.info({ url: metricsUrl(metricsServer) }, 'gateway metrics served');
  return app;
}

/** A hop count as Fastify's trust function (its typings take no number): the nearest `hops` are trusted. */
function trustProxyOf(
  setting: GatewayConfig['TRUST_PROXY'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}
