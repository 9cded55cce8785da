#!/usr/bin/env node
// `npm test`: installs what is missing, builds, then runs every test: unit, integration,
// system and browser tests (Jest) and the SPA's tests (Vitest). Ends with one line:
// `N passed, N failed`. Arguments go to Jest alone (`npm test -- --selectProjects unit`).
//
// Integration, system and browser tests need PostgreSQL and NATS: Testcontainers when a Docker
// engine answers, else DATABASE_URL / NATS_URL, else an embedded PostgreSQL and `nats-server`.
// Browser tests need Chromium (apt-get install chromium, or CHROMIUM_PATH).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, installAndBuild } from './lib/prepare.mjs';

const args = process.argv.slice(2);
const results = join(ROOT, 'test-results');

function say(message) {
  process.stdout.write(`\x1b[35m[test]\x1b[0m ${message}\n`);
}

function run(command, commandArgs, options = {}) {
  return spawnSync(command, commandArgs, { cwd: ROOT, stdio: 'inherit', ...options }).status ?? 1;
}

installAndBuild(say);

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runsBrowserTests = args.length === 0 || args.join(' ').includes('browser');
if (runsBrowserTests && !existsSync(chromium)) {
  say(`Browser tests need Chromium at ${chromium}: \`apt-get install -y chromium\`, or set CHROMIUM_PATH.`);
  process.exit(1);
}

rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

say('Running Jest (unit, integration, system, browser)...');
const jestStatus = run(process.execPath, [
  // On two cores Jest runs every suite in band, in this one process, and with ESM modules its heap
  // ends a full run near V8's default 4 GB limit: a run with one suite more ran out of memory after
  // its last test had passed, before the report was written. Room, until what it keeps is found.
  '--max-old-space-size=8192',
  '--experimental-vm-modules',
  '--no-warnings=ExperimentalWarning',
  'node_modules/jest/bin/jest.js',
  '--json',
  `--outputFile=${join(results, 'jest.json')}`,
  ...args,
]);

let vitestStatus = 0;
if (args.length === 0) {
  say('Running Vitest (frontend)...');
  vitestStatus = run(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${join(results, 'vitest.json')}`],
    {
      cwd: join(ROOT, 'frontend'),
    },
  );
}

function totals(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  // A suite that could not run has no tests to count: count it as a failure.
  return { passed: report.numPassedTests, failed: report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0) };
}

const jest = totals(join(results, 'jest.json'));
const vitest = args.length === 0 ? totals(join(results, 'vitest.json')) : { passed: 0, failed: 0 };
const passed = jest.passed + vitest.passed;
const failed =
  jest.failed +
  vitest.failed +
  (jestStatus !== 0 && jest.failed === 0 ? 1 : 0) +
  (vitestStatus !== 0 && vitest.failed === 0 ? 1 : 0);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
