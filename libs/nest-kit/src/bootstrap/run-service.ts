import type { ServiceName } from '@likeness/contracts';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { z } from 'zod';
import { ConfigError, type ServiceConfig, loadConfig } from '../config/config.js';
import { type ServiceDatabase, runMigrations } from '../database/data-source.js';
import { parseDeadLetterArgs, replayDeadLetters } from '../events/dead-letter-replay.js';
import { PinoNestLogger, createLogger, logFormat, type Logger } from '../logging/logger.js';
import { natsSettingsOf } from '../messaging/nats.js';
import { stopTracing } from '../tracing/tracing.js';
import { RpcServer, discoverRpcHandlers } from '../messaging/rpc-server.js';

export interface ServiceDefinition<C extends ServiceConfig> {
  service: ServiceName;
  configSchema: z.ZodType<C>;
  database: ServiceDatabase;
  module: (config: C) => DynamicModule;
  /** Runs before the app starts: HTTP routes and parsers outside Nest's (e.g. streamed uploads). */
  configureHttp?: (app: NestFastifyApplication, config: C) => void | Promise<void>;
  /**
   * Whether this process answers the service's NATS requests (default yes). A process role that
   * only works a queue (generation's workers) says no, so it scales apart from the request side.
   */
  servesRpc?: (config: C) => boolean;
}

/**
 * A service's `main`: `node main.js` runs it, `node main.js migrate` runs its migrations once
 * and exits, `node main.js replay-dead-letters [--consumer <name>] [--event <id>] [--dry-run]`
 * publishes its parked events again. A bad environment stops start-up with the list of what is wrong.
 */
export async function runServiceMain<C extends ServiceConfig>(definition: ServiceDefinition<C>): Promise<void> {
  const config = loadConfigOrExit(definition.configSchema);
  const logger = createLogger({ name: definition.service, level: config.LOG_LEVEL, format: logFormat(config) });
  try {
    if (process.argv[2] === 'migrate') {
      const ran = await runMigrations(definition.database(config));
      logger.info({ migrations: ran }, ran.length ? `Ran ${ran.length} migration(s)` : 'Database is up to date');
      return;
    }
    if (process.argv[2] === 'replay-dead-letters') {
      const filter = parseDeadLetterArgs(process.argv.slice(3));
      const events = await replayDeadLetters(
        definition.database(config),
        natsSettingsOf(config, definition.service),
        filter,
      );
      for (const event of events) logger.info(event, filter.dryRun ? 'Parked event' : 'Replayed parked event');
      logger.info(`${filter.dryRun ? 'Found' : 'Replayed'} ${events.length} parked event(s)`);
      return;
    }
    const app = await createServiceApp(definition, config, logger);
    exitOnSignal(app, logger, config.SHUTDOWN_GRACE_MS);
    logger.info({ url: await app.getUrl() }, `${definition.service} service ready`);
  } catch (error) {
    logger.fatal({ err: error }, `${definition.service} failed to start`);
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 100).unref();
  }
}

/** Starts a service as a hybrid app: NATS (queue group = service name) plus its health port. */
export async function createServiceApp<C extends ServiceConfig>(
  definition: ServiceDefinition<C>,
  config: C,
  logger: Logger = createLogger({ name: definition.service, level: config.LOG_LEVEL, format: logFormat(config) }),
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(definition.module(config), new FastifyAdapter(), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  const servesRpc = definition.servesRpc?.(config) ?? true;
  const rpcServer = servesRpc
    ? new RpcServer({
        url: config.NATS_URL,
        queue: definition.service,
        namespace: config.NATS_NAMESPACE,
        name: `${definition.service}-rpc`,
        gracePeriodMs: config.SHUTDOWN_GRACE_MS,
        user: config.NATS_USER,
        password: config.NATS_PASSWORD,
      })
    : undefined;
  if (rpcServer) app.connectMicroservice({ strategy: rpcServer }, { inheritAppConfig: true });
  await definition.configureHttp?.(app, config);
  // Hooks first (consumers, bootstrap work), then requests, then the health port.
  await app.init();
  if (rpcServer) {
    rpcServer.serve(discoverRpcHandlers(app));
    await app.startAllMicroservices();
  }
  await app.listen(config.HTTP_PORT, config.HTTP_HOST);
  return app;
}

export function loadConfigOrExit<S extends z.ZodType>(schema: S): z.output<S> {
  try {
    return loadConfig(schema);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * On SIGTERM or SIGINT: stop taking work, let in-flight work finish, close connections and
 * exit 0. A shutdown that hangs past the grace period exits 1 rather than never.
 */
export function exitOnSignal(app: { close(): Promise<void> }, logger: Logger, graceMs: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'Shutting down');
    setTimeout(() => {
      logger.error('Shutdown took too long; exiting');
      process.exit(1);
    }, graceMs + 5_000).unref();
    app.close().then(
      // The last spans go out once everything has stopped.
      () => stopTracing().then(() => process.exit(0)),
      (error: unknown) => {
        logger.error({ err: error }, 'Shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
