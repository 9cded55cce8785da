#!/usr/bin/env node
// `npm start`: installs what is missing, builds, and runs the whole product on one machine.
// `npm run dev`: the same with TypeScript in watch mode and Vite's dev server.
// `--skip-build`: runs what is already built (the supervisor's own tests use it).
//
// The supervisor in libs/devstack does the rest: PostgreSQL (DATABASE_URL, else an embedded
// server under DATA_DIR), NATS (NATS_URL, else `nats-server` from PATH with JetStream under
// DATA_DIR), the migrations, and every app, restarted when it crashes. SIGINT, SIGTERM or SIGHUP
// to this process stop everything in order. Images: S3 when S3_BUCKET is set, else DATA_DIR/objects.
import { installAndBuild } from './lib/prepare.mjs';

const args = process.argv.slice(2);

function say(message) {
  process.stdout.write(`\x1b[35m[likeness]\x1b[0m ${message}\n`);
}

const [major] = process.versions.node.split('.').map(Number);
if (major < 24) say(`Node ${process.versions.node} found; Likeness targets Node 24 LTS (see .nvmrc).`);

if (!args.includes('--skip-build')) installAndBuild(say);

// Imported only now: on a fresh clone the install and build above make it.
const { launchSupervisor } = await import('@likeness/devstack');
process.exitCode = await launchSupervisor(args.filter((arg) => arg !== '--skip-build'));
