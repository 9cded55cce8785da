import 'reflect-metadata';
import { createLogger, exitOnSignal, loadConfigOrExit, logFormat } from '@likeness/nest-kit';
import { createGatewayApp } from './gateway.app.js';
import { gatewayConfigSchema } from './gateway.config.js';

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
