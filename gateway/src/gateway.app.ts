import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import { type Logger, PinoNestLogger, createLogger, logFormat } from '@likeness/nest-kit';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { GatewayConfig } from './gateway.config.js';
import { GatewayModule } from './gateway.module.js';
import { sendError } from './http/http-errors.js';
import { registerAccessLog, registerCorrelation, registerCsrfProtection } from './http/request-hooks.js';
import { registerStaticSpa } from './http/static-spa.js';
import { registerMediaFileRoutes } from './media/media-file.routes.js';
import { MediaHttpClient } from './media/media-http.client.js';

/** JSON bodies larger than this are refused (uploads will use multipart with their own limits). */
const BODY_LIMIT_BYTES = 1024 * 1024;

export async function createGatewayApp(
  config: GatewayConfig,
  logger: Logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL, format: logFormat(config) }),
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ trustProxy: config.TRUST_PROXY, bodyLimit: BODY_LIMIT_BYTES });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config), adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
    // Webhook signatures cover the exact bytes received.
    rawBody: true,
  });
  const fastify = app.getHttpAdapter().getInstance();
  registerCorrelation(fastify);
  registerAccessLog(fastify, logger);
  registerCsrfProtection(fastify, config.PUBLIC_ORIGIN);
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    // The SPA's own scripts, and Stripe.js with its iframes for the payment form (Stripe's
    // documented sources); Radix positions popovers with inline styles.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'],
        frameSrc: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https://*.stripe.com'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'https://api.stripe.com'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Single-machine mode is plain HTTP on loopback; TLS is the ingress's job.
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  // Errors Fastify raises before a route runs (unreadable JSON, a body too large).
  fastify.setErrorHandler((error, request, reply) => sendError(reply, request, error));
  // Uploads stream through untouched to media, which parses them with its own limits.
  fastify.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  registerMediaFileRoutes(fastify, app.get(MediaHttpClient));
  await registerStaticSpa(fastify, config.STATIC_DIR);
  await app.listen(config.PORT, config.HOST);
  return app;
}
