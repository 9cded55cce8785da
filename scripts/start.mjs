#!/usr/bin/env node
// `npm start`: installs what is missing, builds, and runs the whole product on one machine.
// `npm run dev`: the same with TypeScript in watch mode and Vite's dev server.
//
// PostgreSQL: DATABASE_URL, else an embedded server under DATA_DIR.
// NATS:       NATS_URL, else `nats-server` from PATH with JetStream under DATA_DIR.
// Images:     S3 when S3_BUCKET is set, else files under DATA_DIR/objects.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT, installAndBuild } from './lib/prepare.mjs';

const dev = process.argv.includes('--dev');
const env = process.env;
const dataDir = resolve(ROOT, env.DATA_DIR ?? '.data');
const port = Number(env.PORT ?? 3000);
const host = env.HOST ?? '127.0.0.1';
const cleanups = [];

function say(message) {
  process.stdout.write(`\x1b[35m[likeness]\x1b[0m ${message}\n`);
}

const [major] = process.versions.node.split('.').map(Number);
if (major < 24) say(`Node ${process.versions.node} found; Likeness targets Node 24 LTS (see .nvmrc).`);

installAndBuild(say);

const { startEmbeddedPostgres } = await import('../libs/testing/dist/servers/embedded-postgres.js');
const { startNatsServer, findNatsServer } = await import('../libs/testing/dist/servers/nats-server.js');
const { freePort } = await import('../libs/testing/dist/servers/free-port.js');
const { migrateAll, startStack } = await import('../libs/testing/dist/servers/stack.js');
mkdirSync(dataDir, { recursive: true });

async function shutdown(code = 0) {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  process.exit(code);
}
let stoppingBySignal = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stoppingBySignal) return;
    stoppingBySignal = true;
    say('Stopping...');
    void shutdown(0);
  });
}

try {
  // 3. PostgreSQL.
  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    say(`Starting an embedded PostgreSQL in ${join(dataDir, 'postgres')}...`);
    const postgres = await startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres') });
    cleanups.push(() => postgres.stop());
    databaseUrl = postgres.url;
  }

  // 4. NATS with JetStream.
  let natsUrl = env.NATS_URL;
  if (!natsUrl) {
    if (!findNatsServer()) {
      say('NATS is needed and no `nats-server` is on PATH.');
      say('Install it (Debian/Ubuntu: `sudo apt-get install nats-server`; macOS: `brew install nats-server`),');
      say('or set NATS_URL to a NATS server with JetStream enabled (e.g. `docker run -p 4222:4222 nats -js`).');
      await shutdown(1);
    }
    say(`Starting nats-server with JetStream in ${join(dataDir, 'nats')}...`);
    const nats = await startNatsServer({ storeDir: join(dataDir, 'nats'), logFile: join(dataDir, 'nats-server.log') });
    cleanups.push(() => nats.stop());
    natsUrl = nats.url;
  }

  // 5. Secrets that survive restarts, so sessions and image links do too.
  const secretsFile = join(dataDir, 'secrets.json');
  const secrets = existsSync(secretsFile) ? JSON.parse(readFileSync(secretsFile, 'utf8')) : {};
  let generated = false;
  for (const name of ['JWT_SECRET', 'MEDIA_SECRET']) {
    if (secrets[name]) continue;
    secrets[name] = randomBytes(48).toString('base64url');
    generated = true;
  }
  if (generated) writeFileSync(secretsFile, JSON.stringify(secrets), { mode: 0o600 });

  const stackEnv = {
    NODE_ENV: env.NODE_ENV ?? 'development',
    LOG_FORMAT: env.LOG_FORMAT ?? 'pretty',
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    JWT_SECRET: env.JWT_SECRET ?? secrets.JWT_SECRET,
    MEDIA_SECRET: env.MEDIA_SECRET ?? secrets.MEDIA_SECRET,
    // Images stay under DATA_DIR unless S3 settings are given.
    DATA_DIR: dataDir,
  };

  say('Migrating databases...');
  await migrateAll({ env: stackEnv });

  if (dev) {
    // TypeScript rebuilds on change; each app restarts when its output changes.
    const watch = spawn('npx', ['tsc', '-b', '--watch', '--preserveWatchOutput', 'tsconfig.json'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    cleanups.push(async () => watch.kill('SIGTERM'));
  }

  const gatewayPort = dev ? await freePort() : port;
  const stack = await startStack({
    env: stackEnv,
    port: gatewayPort,
    host,
    staticDir: dev ? undefined : join(ROOT, 'frontend/dist'),
    output: 'inherit',
    nodeArgs: dev ? ['--watch'] : [],
  });
  cleanups.push(() => stack.stop());

  if (dev) {
    const vite = spawn('npx', ['vite', '--port', String(port), '--host', host, '--strictPort'], {
      cwd: join(ROOT, 'frontend'),
      stdio: 'inherit',
      env: { ...env, GATEWAY_URL: stack.url },
    });
    cleanups.push(async () => vite.kill('SIGTERM'));
  }
  say(`Likeness is running at http://${host === '0.0.0.0' ? 'localhost' : host}:${port}  (Ctrl-C stops it)`);
} catch (error) {
  say(`Could not start: ${error.message}`);
  await shutdown(1);
}
