export * from './environment.js';
export * from './built-app.js';
export * from './containers.js';
// The servers and the stack come from the local runtime; tests keep importing them from here.
export {
  ROOT,
  SERVICES,
  type App,
  type AppExit,
  type AppEnv,
  type EmbeddedPostgresHandle,
  type NatsServerHandle,
  type Stack,
  type StackOptions,
  findNatsServer,
  freePort,
  migrateAll,
  startEmbeddedPostgres,
  startNatsServer,
  startStack,
  waitFor,
} from '@likeness/devstack';
export { default as globalSetup } from './jest/global-setup.js';
export { default as globalTeardown } from './jest/global-teardown.js';
export * from './service-harness.js';
export * from './service-checks.js';
export * from './event-probe.js';
export * from './event-publisher.js';
export * from './stripe-stand-in.js';
export * from './servers/stream-cleanup.js';
export * from './servers/s3-server.js';
export * from './replicate-stand-in.js';
export * from './mail-catcher.js';
export * from './snapshot-paging.js';
export * from './nats-users.js';
export * from './metrics-scrape.js';
