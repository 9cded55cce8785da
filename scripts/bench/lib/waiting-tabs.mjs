// The requests one waiting browser tab makes, with the live events and without them (part 3 of
// `npm run bench:events`). The SPA from frontend/dist in headless Chromium, signed in, waits on
// the Models page while a training runs, then on the Create page while a generation runs; each
// for BENCH_TAB_SECONDS, once with GET /api/events open and once with it refused (503, as when
// the stream is down: the SPA falls back to polling, the way it worked before live events, and
// asks for the stream again every 30 s). Every request the page makes is counted, by path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { apiCaller, buyPackage, startBenchTraining } from './api.mjs';
import { startBenchStack } from './bench-environment.mjs';

const { ROOT } = await import('../../../libs/devstack/dist/index.js');

const SECONDS = Number(process.env.BENCH_TAB_SECONDS ?? 60);
/** Long enough that both of the Models page's windows fall inside one training. */
const TRAINING_MS = (2 * SECONDS + 90) * 1000;
/** Each Create window has a generation of its own, still running when the window ends. */
const GENERATION_MS = (SECONDS + 45) * 1000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync'];
const USER = { username: 'bench_tabs', email: 'tabs@bench.example', password: 'Bench-Tabs-Pass-2049' };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `/api/generation-jobs/7f3c…` → `/api/generation-jobs/:id`: one line per kind of request. */
const template = (pathname) =>
  pathname.replace(/\/[0-9a-f]{8}-[0-9a-f-]{27}(?=\/|$)/g, '/:id').replace(/\/\d+(?=\/|$)/g, '/:id');

/**
 * A tab signed in as the bench user, with the live events (`live`) or with the stream refused.
 * Resolves with the tab and a counter of the requests it makes from the moment `count()` is called.
 */
async function openTab(browser, url, session, { live }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: session });
  await context.addInitScript(() => {
    window.localStorage.setItem('onboarding_completed', 'true');
    window.localStorage.setItem('pwa-install-dismissed', 'true');
  });
  if (!live) {
    await context.route('**/api/events', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":"COMMON.SERVICE_UNAVAILABLE"}' }),
    );
  }
  const page = await context.newPage();
  let counting = false;
  const requests = [];
  page.on('request', (request) => {
    if (counting) requests.push(`${request.method()} ${template(new URL(request.url()).pathname)}`);
  });
  return {
    page,
    count: () => {
      counting = true;
      return requests;
    },
    close: () => context.close(),
  };
}

/** Counts what the tab asks for during SECONDS, once the screen is waiting. */
async function measure(tab) {
  const requests = tab.count();
  await sleep(SECONDS * 1000);
  const byKind = new Map();
  for (const request of requests) byKind.set(request, (byKind.get(request) ?? 0) + 1);
  return { total: requests.length, byKind: [...byKind].sort((a, b) => b[1] - a[1]) };
}

const report = (title, { total, byKind }) => {
  const perMinute = (total * 60) / SECONDS;
  console.log(
    `  ${title.padEnd(44)} ${String(total).padStart(3)} requests in ${SECONDS} s (${perMinute.toFixed(1)}/min)`,
  );
  for (const [kind, count] of byKind) console.log(`      ${String(count).padStart(3)}  ${kind}`);
};

async function statusOf(call, cookie, modelId) {
  const models = await call('/api/custom-models', { cookie });
  return models.json.find((model) => model.id === modelId)?.status;
}

export async function measureWaitingTabs() {
  const dataDir = mkdtempSync(join(tmpdir(), 'likeness-bench-tabs-'));
  let run;
  let browser;
  try {
    run = await startBenchStack('tabs', {
      dataDir,
      staticDir: join(ROOT, 'frontend/dist'),
      env: {
        MAIL_PROVIDER: 'mailbox',
        PUBLIC_URL: 'http://127.0.0.1',
        LOCAL_TRAINING_MS: String(TRAINING_MS),
        LOCAL_GENERATION_MS: String(GENERATION_MS),
        ACCESS_TOKEN_TTL_SECONDS: '3600',
      },
    });
    const { url } = run.stack;
    const call = apiCaller(url);
    const registered = await call('/api/register', { method: 'POST', body: USER });
    if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
    const cookie = registered.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    await buyPackage(call, cookie, 'professional');
    const modelId = await startBenchTraining(call, cookie, { modelName: 'Tab model', triggerWord: 'tab_face' });

    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const signIn = await browser.newContext();
    const login = await signIn.request.post(`${url}/api/login`, {
      data: { username: USER.username, password: USER.password },
      headers: { origin: url },
    });
    if (!login.ok()) throw new Error(`login answered ${login.status()}`);
    const session = await signIn.storageState();
    await signIn.close();

    console.log(
      `\nRequests per waiting tab, Chromium ${browser.version()} (${SECONDS} s each; training ${TRAINING_MS / 1000} s, generation ${GENERATION_MS / 1000} s):`,
    );
    for (const live of [true, false]) {
      const tab = await openTab(browser, url, session, { live });
      const stream = tab.page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
      await tab.page.goto(`${url}/models`);
      await tab.page.getByRole('heading', { level: 1, name: 'Custom AI Models' }).waitFor({ timeout: 60_000 });
      const streamStatus = (await stream).status();
      // Settled: the page's first reads are done (an open event stream never lets the network idle).
      await sleep(2_000);
      const result = await measure(tab);
      const still = await statusOf(call, cookie, modelId);
      await tab.close();
      report(`Models page, training running, ${live ? 'live events' : 'stream refused'} (${streamStatus})`, result);
      if (still === 'completed')
        console.log('      (the training ended during the window: not a waiting tab throughout)');
    }

    for (let status = await statusOf(call, cookie, modelId); status !== 'completed';) {
      if (status === 'failed') throw new Error('The training failed');
      await sleep(1_000);
      status = await statusOf(call, cookie, modelId);
    }
    for (const live of [true, false]) {
      const tab = await openTab(browser, url, session, { live });
      const stream = tab.page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
      await tab.page.goto(`${url}/create`);
      await tab.page
        .getByRole('heading', { level: 1, name: 'Create Studio Quality Photos' })
        .waitFor({ timeout: 60_000 });
      const streamStatus = (await stream).status();
      const prompt = tab.page.getByLabel('Prompt', { exact: true });
      // The only ready model is chosen and its trigger word starts the prompt.
      for (let tries = 0; !(await prompt.inputValue()).startsWith('tab_face'); tries += 1) {
        if (tries > 300) throw new Error('The Create page never offered the trained model');
        await sleep(100);
      }
      await tab.page.getByRole('button', { name: /^Generate/ }).click();
      await tab.page.getByRole('dialog', { name: 'Generating your avatars...' }).waitFor();
      await sleep(2_000);
      const result = await measure(tab);
      const ended = await tab.page.getByText('Avatar ready!', { exact: true }).count();
      await tab.close();
      report(`Create page, generation running, ${live ? 'live events' : 'stream refused'} (${streamStatus})`, result);
      if (ended > 0) console.log('      (the generation ended during the window: not a waiting tab throughout)');
    }
  } finally {
    await browser?.close();
    await run?.stack.stop();
    await run?.bench.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
