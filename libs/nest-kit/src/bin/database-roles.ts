// `node libs/nest-kit/dist/bin/database-roles.js` (`npm run db:roles`): creates each service's
// PostgreSQL role and schema as the administrator, before the migrations run as those roles.
// Compose's `database-roles` container and the Kubernetes Job `database-roles` run it.
import { ConfigError, loadConfig } from '../config/config.js';
import { bootstrapServiceRoles, databaseRolesConfigSchema, serviceRolesOf } from '../database/service-roles.js';
import { createLogger, logFormat } from '../logging/logger.js';

try {
  const config = loadConfig(databaseRolesConfigSchema);
  const logger = createLogger({ name: 'database-roles', level: config.LOG_LEVEL, format: logFormat(config) });
  try {
    const roles = serviceRolesOf(config);
    const report = await bootstrapServiceRoles(config.DATABASE_ADMIN_URL, roles);
    logger.info({ ...report, roles: roles.map(({ schema, role }) => ({ schema, role })) }, 'Service roles are ready');
  } catch (error) {
    logger.fatal({ err: error }, 'Could not set up the service roles');
    process.exitCode = 1;
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
