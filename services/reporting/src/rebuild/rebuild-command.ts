import {
  RpcClient,
  type ServiceDefinition,
  connectNats,
  createLogger,
  loadConfigOrExit,
  logFormat,
  natsSettingsOf,
  runMigrations,
} from '@likeness/nest-kit';
import { DataSource } from 'typeorm';
import type { ReportingConfig } from '../reporting.config.js';
import { rebuildReadModels } from './rebuild.js';

/**
 * `npm run reporting:rebuild`: with the reporting service's configuration from the environment,
 * migrates, then rebuilds the read models from the snapshots. The service may keep running
 * meanwhile: its consumers catch up from the stream without a gap or a double count.
 */
export async function runRebuild(definition: ServiceDefinition<ReportingConfig>): Promise<void> {
  const config = loadConfigOrExit(definition.configSchema);
  const logger = createLogger({
    name: `${definition.service}-rebuild`,
    level: config.LOG_LEVEL,
    format: logFormat(config),
  });
  const options = definition.database(config);
  await runMigrations(options);
  const dataSource = await new DataSource(options).initialize();
  const settings = natsSettingsOf(config, `${definition.service}-rebuild`);
  const connection = await connectNats(settings);
  try {
    const started = performance.now();
    const counts = await rebuildReadModels(dataSource, new RpcClient(connection, settings, 30_000));
    logger.info({ counts, ms: Math.round(performance.now() - started) }, 'Rebuilt the read models');
  } catch (error) {
    logger.fatal({ err: error }, 'The rebuild failed; run it again (it starts over)');
    process.exitCode = 1;
  } finally {
    await connection.drain();
    await dataSource.destroy();
  }
}
