// The supervisor behind `npm start` and `npm run dev`: PostgreSQL and NATS when none are given,
// the secrets, the migrations, then every app (./stack.ts), each restarted when it crashes.
// SIGINT, SIGTERM and SIGHUP stop everything in order: the apps (the gateway first), then NATS,
// then PostgreSQL; then it exits 0. It runs in a process group of its own under the launcher
// (./launcher.ts) and stops the same way when the launcher dies (its IPC channel closes).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { freePort } from './free-port.js';
import type { LocalConfig } from './local-config.js';
import { findNatsServer, startNatsServer } from './nats-server.js';
import { ROOT, migrateAll, startStack } from './stack.js';

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function say(message: string): void {
  process.stdout.write(`\x1b[35m[likeness]\x1b[0m ${message}\n`);
}

/** Something started, and how to stop it. */
interface Running {
  name: string;
  stop(): Promise<void>;
}

/** Starts everything, then runs until it is told to stop; exits the process 0 when stopped, 1 when it could not start. */
export async function runSupervisor(config: LocalConfig, { dev }: { dev: boolean }): Promise<void> {
  // A closed terminal or pipe (SIGHUP, `| head`) must not cut the shutdown short.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);

  const running: Running[] = [];
  const aborting = new AbortController();
  let starting: Promise<void> = Promise.resolve();
  let stopping = false;

  const stop = (code: number, message: string) => {
    if (stopping) return;
    stopping = true;
    say(message);
    aborting.abort();
    void (async () => {
      // What is starting gives up first, so whatever it had started is in the list.
      await starting.catch(() => undefined);
      for (const started of [...running].reverse()) {
        say(`Stopping ${started.name}...`);
        await started
          .stop()
          .catch((error: unknown) => say(`Stopping ${started.name} failed: ${(error as Error).message}`));
      }
      say('Stopped.');
      process.exit(code);
    })();
  };

  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      if (!stopping) return stop(0, `Stopping (${signal})...`);
      say('Stopping at once.');
      killOwnProcessGroup();
    });
  }
  // The launcher died without passing on a signal: nobody else would stop what runs here.
  process.on('disconnect', () => stop(0, 'npm start is gone; stopping...'));
  process.on('uncaughtException', (error) => stop(1, `Crashed: ${error.stack ?? error.message}`));
  process.on('unhandledRejection', (reason) => stop(1, `Crashed: ${(reason as Error)?.stack ?? String(reason)}`));

  starting = start(config, dev, aborting.signal, running);
  try {
    await starting;
  } catch (error) {
    if (!aborting.signal.aborted) stop(1, `Could not start: ${(error as Error).message}`);
  }
}

async function start(config: LocalConfig, dev: boolean, signal: AbortSignal, running: Running[]): Promise<void> {
  const dataDir = resolve(ROOT, config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });

  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    say(`Starting an embedded PostgreSQL in ${join(dataDir, 'postgres')}...`);
    const postgres = await startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres') });
    running.push({ name: 'PostgreSQL', stop: () => postgres.stop() });
    databaseUrl = postgres.url;
    signal.throwIfAborted();
  }

  let natsUrl = config.NATS_URL;
  if (!natsUrl) {
    if (!findNatsServer()) {
      throw new Error(
        [
          'NATS is needed and no `nats-server` is on PATH.',
          'Install it (Debian/Ubuntu: `sudo apt-get install nats-server`; macOS: `brew install nats-server`),',
          'or set NATS_URL to a NATS server with JetStream enabled (e.g. `docker run -p 4222:4222 nats -js`).',
        ].join('\n'),
      );
    }
    say(`Starting nats-server with JetStream in ${join(dataDir, 'nats')}...`);
    const nats = await startNatsServer({ storeDir: join(dataDir, 'nats'), logFile: join(dataDir, 'nats-server.log') });
    running.push({ name: 'nats-server', stop: () => nats.stop() });
    natsUrl = nats.url;
    signal.throwIfAborted();
  }

  const secrets = keptSecrets(join(dataDir, 'secrets.json'));

  const appEnv: Record<string, string> = {
    NODE_ENV: config.NODE_ENV,
    LOG_FORMAT: config.LOG_FORMAT,
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    JWT_SECRET: config.JWT_SECRET ?? secrets.JWT_SECRET,
    MEDIA_SECRET: config.MEDIA_SECRET ?? secrets.MEDIA_SECRET,
    // Images stay under DATA_DIR unless S3 settings are given.
    DATA_DIR: dataDir,
  };

  say('Migrating databases...');
  await migrateAll({ env: appEnv, signal });

  if (dev) {
    // TypeScript rebuilds on change; each app restarts when its output changes (node --watch).
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    running.push(runTool('tsc --watch', tsc, ['-b', '--watch', '--preserveWatchOutput', 'tsconfig.json'], ROOT));
  }

  const shownHost = config.HOST === '0.0.0.0' ? 'localhost' : config.HOST;
  const publicUrl = config.PUBLIC_URL ?? `http://${shownHost}:${config.PORT}`;
  const stack = await startStack({
    env: appEnv,
    // Links in mails lead to the address people open (the dev mailbox logs them too); the pages'
    // share links (og:image) point there too.
    appEnv: { auth: { PUBLIC_URL: publicUrl }, gateway: { PUBLIC_URL: publicUrl } },
    port: dev ? await freePort() : config.PORT,
    host: config.HOST,
    staticDir: dev ? undefined : join(ROOT, 'frontend/dist'),
    output: 'inherit',
    nodeArgs: dev ? ['--watch'] : [],
    restart: true,
    signal,
  });
  running.push({ name: 'the apps', stop: () => stack.stop() });

  if (dev) {
    const frontend = join(ROOT, 'frontend');
    const vite = join(
      dirname(createRequire(join(frontend, 'package.json')).resolve('vite/package.json')),
      'bin/vite.js',
    );
    const args = ['--port', String(config.PORT), '--host', config.HOST, '--strictPort'];
    running.push(runTool('vite', vite, args, frontend, { GATEWAY_URL: stack.url }));
  }
  say(`Likeness is running at http://${shownHost}:${config.PORT}  (Ctrl-C stops it)`);
}

/** Secrets generated once and kept in DATA_DIR, so sessions and image links survive restarts. */
function keptSecrets(file: string): { JWT_SECRET: string; MEDIA_SECRET: string } {
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string | undefined>) : {};
  const secrets = {
    JWT_SECRET: kept['JWT_SECRET'] || randomBytes(48).toString('base64url'),
    MEDIA_SECRET: kept['MEDIA_SECRET'] || randomBytes(48).toString('base64url'),
  };
  if (secrets.JWT_SECRET !== kept['JWT_SECRET'] || secrets.MEDIA_SECRET !== kept['MEDIA_SECRET']) {
    writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  }
  return secrets;
}

/** Runs a Node tool (tsc, vite) beside the apps. */
function runTool(name: string, script: string, args: string[], cwd: string, env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [script, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('error', (error) => say(`${name}: ${error.message}`));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return { name, stop };
}

/** The launcher made this process the leader of its group: a forced stop takes the whole group. */
function killOwnProcessGroup(): void {
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    process.exit(1);
  }
}
