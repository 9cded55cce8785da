#!/usr/bin/env node
// `npm run bench:web`: what a first visit costs the browser. The whole stack from its build
// (production settings) serves the SPA; headless Chromium (/usr/bin/chromium) opens, each time in
// a fresh context (empty cache, service workers blocked: a first visit):
//   - `/` as a visitor and `/dashboard` as a signed-in user: the JavaScript and CSS the page
//     loads, as gzip (-9) bytes of each file and as the bytes that crossed the wire;
//   - `/` with the CPU throttled 4× (CDP Emulation.setCPUThrottlingRate): Largest Contentful
//     Paint and Cumulative Layout Shift.
// BENCH_LOADS loads of each (default 5); medians, with min-max. Goals (issue 14): `/` at most
// 90 KB of JavaScript, `/dashboard` at most 170 KB, LCP under 1.0 s, CLS under 0.02.
//
// BENCH_LIST_FILES=1 also lists each file of the first load with its gzip size.
// BENCH_STATIC_DIR serves another build (e.g. an older commit's frontend/dist, to compare).
// Its own database and NATS namespace, removed at the end; everything on 127.0.0.1. Uses
// DATABASE_URL / NATS_URL like the tests. Results go to docs/benchmarks.md by hand.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { createBenchEnvironment } from './lib/bench-environment.mjs';
import { median } from './lib/load.mjs';

const { ROOT, freePort, migrateAll, startStack } = await import('../../libs/devstack/dist/index.js');

const LOADS = Number(process.env.BENCH_LOADS ?? 5);
const LIST_FILES = process.env.BENCH_LIST_FILES === '1';
const CPU_SLOWDOWN = 4;
const STATIC_DIR = process.env.BENCH_STATIC_DIR ?? join(ROOT, 'frontend/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
const USER = { username: 'bench_web', email: 'web@bench.example', password: 'Bench-Web-Pass-2049' };

const dataDir = mkdtempSync(join(tmpdir(), 'likeness-bench-web-'));
const bench = await createBenchEnvironment('web', {
  DATA_DIR: dataDir,
  MAIL_PROVIDER: 'mailbox',
  PUBLIC_URL: 'http://127.0.0.1',
});

/** gzip -9 size of a served file, by its URL path (what the build's .gz twin weighs). */
function gzippedSize(pathname) {
  return gzipSync(readFileSync(join(STATIC_DIR, decodeURIComponent(pathname))), { level: 9 }).length;
}

/** Records the page's LCP and layout shifts from the first paint on (set before any script runs). */
function observeVitals() {
  const vitals = { lcp: 0, cls: 0 };
  Object.assign(window, { benchVitals: vitals });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) vitals.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) vitals.cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
}

/**
 * The vitals so far, once the browser has delivered its buffered LCP entries (a throttled CPU
 * dispatches them late): the last LCP candidate and the layout shifts' sum.
 */
function readVitals() {
  return new Promise((resolve) => {
    const finish = () => resolve({ ...window.benchVitals });
    new PerformanceObserver((list, observer) => {
      for (const entry of list.getEntries()) window.benchVitals.lcp = Math.max(window.benchVitals.lcp, entry.startTime);
      observer.disconnect();
      finish();
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    setTimeout(finish, 3000);
  });
}

/**
 * One cold load of `path`: the scripts and stylesheets it fetched (gzip and wire bytes), and
 * its LCP and CLS once the network is quiet.
 */
async function load(browser, url, path, { session, cpuSlowdown = 1 }) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    serviceWorkers: 'block',
    ...(session ? { storageState: session } : {}),
  });
  try {
    await context.addInitScript(() => window.localStorage.setItem('onboarding_completed', 'true'));
    await context.addInitScript(observeVitals);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    const assets = [];
    const recording = [];
    page.on('requestfinished', (request) => {
      const type = request.resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      const { pathname } = new URL(request.url());
      // A file that finishes as the page closes (the run is over) is left out, not a crash.
      const recorded = request.sizes().then(
        ({ responseBodySize }) => assets.push({ type, pathname, gzip: gzippedSize(pathname), wire: responseBodySize }),
        () => undefined,
      );
      recording.push(recorded);
    });
    await page.goto(`${url}${path}`);
    // Settled: the screen's heading drawn (after any redirect), then the network quiet.
    await page.locator('h1').first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    const vitals = await page.evaluate(readVitals);
    await Promise.all(recording);
    const sum = (type, key) =>
      assets.filter((asset) => asset.type === type).reduce((total, asset) => total + asset[key], 0);
    return {
      assets,
      jsGzip: sum('script', 'gzip'),
      jsWire: sum('script', 'wire'),
      cssGzip: sum('stylesheet', 'gzip'),
      cssWire: sum('stylesheet', 'wire'),
      files: assets.length,
      lcp: vitals.lcp,
      cls: vitals.cls,
      landedOn: new URL(page.url()).pathname,
    };
  } finally {
    await context.close();
  }
}

/** The session cookies of the bench user, signed in once (login is rate-limited per account). */
async function signIn(browser, url) {
  const context = await browser.newContext();
  try {
    const answer = await context.request.post(`${url}/api/login`, {
      data: { username: USER.username, password: USER.password },
      headers: { origin: url },
    });
    if (!answer.ok()) throw new Error(`Could not log in: ${answer.status()} ${await answer.text()}`);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value) => `${Math.round(value)} ms`;
const shift = (value) => value.toFixed(3);

function report(label, runs, key, format) {
  const values = runs.map((run) => run[key]);
  console.log(
    `  ${label.padEnd(24)} median ${format(median(values)).padStart(9)}  (${format(Math.min(...values))} - ${format(Math.max(...values))})`,
  );
}

let stack;
let browser;
try {
  await migrateAll({ env: bench.env });
  stack = await startStack({
    env: bench.env,
    port: await freePort(),
    staticDir: STATIC_DIR,
    output: { dir: dataDir },
    readyTimeoutMs: 180_000,
  });
  const registered = await fetch(`${stack.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: stack.url },
    body: JSON.stringify(USER),
  });
  if (registered.status !== 201) throw new Error(`Could not register: ${registered.status}`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const session = await signIn(browser, stack.url);

  console.log(`Date: ${new Date().toISOString()}`);
  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, Chromium ${browser.version()}, load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
  console.log(`Build: ${STATIC_DIR}; ${LOADS} cold loads each`);

  // Warm-up, not reported: the stack's code paths and the disk cache of the build.
  await load(browser, stack.url, '/', {});
  await load(browser, stack.url, '/dashboard', { session });

  const scenarios = [
    { title: '/ (visitor)', path: '/' },
    { title: '/dashboard (signed in)', path: '/dashboard', session },
    { title: `/ (visitor), CPU ${CPU_SLOWDOWN}× slower`, path: '/', cpuSlowdown: CPU_SLOWDOWN },
  ];
  for (const { title, ...scenario } of scenarios) {
    const runs = [];
    for (let index = 0; index < LOADS; index += 1) runs.push(await load(browser, stack.url, scenario.path, scenario));
    console.log(`\n${title} -> ${runs[0].landedOn}, ${runs[0].files} JS/CSS files`);
    report('JavaScript, gzip -9', runs, 'jsGzip', kb);
    report('JavaScript on the wire', runs, 'jsWire', kb);
    report('CSS, gzip -9', runs, 'cssGzip', kb);
    report('CSS on the wire', runs, 'cssWire', kb);
    report('LCP', runs, 'lcp', ms);
    report('CLS', runs, 'cls', shift);
    if (LIST_FILES) {
      for (const asset of runs[0].assets.toSorted((a, b) => b.gzip - a.gzip))
        console.log(`    ${kb(asset.gzip).padStart(9)}  ${asset.pathname}`);
    }
  }
  console.log(
    `\nLoad average at the end: ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await browser?.close();
  await stack?.stop();
  await bench.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
