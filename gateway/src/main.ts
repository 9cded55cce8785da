import { startTracing } from '@likeness/nest-kit/tracing';

// Before the app's modules load, so that tracing's instrumentations see http, fastify and pg loaded.
await startTracing('gateway');
await import('reflect-metadata');
const { createLogger, exitOnSignal, loadConfigOrExit, logFormat } = await import('@likeness/nest-kit');
const { createGatewayApp } = await import('./gateway.app.js');
const { gatewayConfigSchema } = await import('./gateway.config.js');

const config = loadConfigOrExit(gatewayConfigSchema);
const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL, format: logFormat(config) });
try {
  const app = await createGatewayApp(config, logger);
  exitOnSignal(app, logger, 10_000);
  logger.info({ url: await app.getUrl() }, 'gateway ready');
} catch (error) {
  logger.fatal({ err: error }, 'gateway failed to start');
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 100).unref();
}
