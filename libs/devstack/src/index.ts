export * from './free-port.js';
export * from './nats-server.js';
export * from './embedded-postgres.js';
export * from './restart-policy.js';
export * from './stack.js';
export * from './local-config.js';
export { launchSupervisor } from './launcher.js';
