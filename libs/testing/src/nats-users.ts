import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type NatsServerHandle, freePort, startNatsServer } from '@likeness/devstack';
import { type NatsSettings, natsUsers, renderNatsServerAuthorization } from '@likeness/nest-kit';
import { tempDir } from './service-harness.js';

export interface NatsServerWithUsers extends NatsServerHandle {
  /** The server's log, where it names every refused publish and subscription. */
  logFile: string;
  /** NATS_USER and NATS_PASSWORD of a user of deploy/nats/auth.conf, for an app's environment. */
  credentialsOf(user: string): { NATS_USER: string; NATS_PASSWORD: string };
  /** A connection's settings as that user, in the server's namespace. */
  settingsOf(user: string): NatsSettings;
}

/**
 * A nats-server of its own with the users and permissions `npm run nats:config` generates, for
 * subjects in `namespace` (the one the test's apps use), each password a throwaway. Start it on
 * `port` to give the apps' environment its URL first.
 */
export async function startNatsServerWithUsers(options: {
  namespace: string;
  port?: number;
}): Promise<NatsServerWithUsers> {
  const dir = tempDir('nats-users');
  const configFile = join(dir, 'auth.conf');
  writeFileSync(configFile, renderNatsServerAuthorization(options.namespace));
  const passwordOf = (user: string) => `test-${user}-password`;
  const env = Object.fromEntries(natsUsers().map(({ user, passwordVariable }) => [passwordVariable, passwordOf(user)]));
  const logFile = join(dir, 'nats-server.log');
  const server = await startNatsServer({
    storeDir: join(dir, 'store'),
    port: options.port ?? (await freePort()),
    configFile,
    env,
    logFile,
  });
  return {
    ...server,
    logFile,
    credentialsOf: (user) => ({ NATS_USER: user, NATS_PASSWORD: passwordOf(user) }),
    settingsOf: (user) => ({
      url: server.url,
      namespace: options.namespace,
      name: `${user}-test`,
      user,
      password: passwordOf(user),
    }),
  };
}
