// The supervisor's process: `npm start` launches it through launchSupervisor (./launcher.ts).
import { loadLocalConfig } from './local-config.js';
import { runSupervisor, say } from './supervisor.js';

let config;
try {
  config = loadLocalConfig(process.env);
} catch (error) {
  say((error as Error).message);
  process.exit(1);
}
await runSupervisor(config, { dev: process.argv.includes('--dev') });
