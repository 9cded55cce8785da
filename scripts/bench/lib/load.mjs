// Load generators and summaries for the benchmarks that compare request paths.
import { Agent, request as httpRequest } from 'node:http';

/** A request's answer time budget: past it the request counts as an error. */
const REQUEST_TIMEOUT_MS = 10_000;

export const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

export const median = (values) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** `min-max` of a list of numbers, with `digits` decimals. */
export const spread = (values, digits = 2) =>
  `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;

/**
 * GETs over keep-alive connections to 127.0.0.1:`port`; resolves with the status and the body's
 * bytes read in full, rejects after REQUEST_TIMEOUT_MS.
 */
export function httpGetter(port, { maxSockets = 256 } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const get = (path, headers) =>
    new Promise((resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, path, headers, agent }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      });
      outgoing.setTimeout(REQUEST_TIMEOUT_MS, () => outgoing.destroy(new Error('timed out')));
      outgoing.on('error', reject);
      outgoing.end();
    });
  get.close = () => agent.destroy();
  return get;
}

/**
 * Open loop: starts a request every 1/`rate` s for `seconds`, whether or not earlier ones have
 * answered (a slow answer does not slow the arrivals, so queueing shows in the latencies). Each
 * latency runs from when its request was due to its answer. `send` resolves when answered and
 * throws for a failure.
 */
export async function openLoop(send, { rate, seconds }) {
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latencies = [];
  let errors = 0;
  const pending = [];
  const started = performance.now();
  let issued = 0;
  while (issued < total) {
    const now = performance.now();
    // Every request due by now goes out, so a late timer does not lower the rate.
    while (issued < total && started + issued * interval <= now) {
      const due = started + issued * interval;
      issued += 1;
      pending.push(
        send().then(
          () => latencies.push(performance.now() - due),
          () => (errors += 1),
        ),
      );
    }
    const next = started + issued * interval - performance.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.floor(next))));
  }
  await Promise.all(pending);
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

/**
 * Saturation: `concurrency` requests always in flight for `seconds` (a closed loop: the most the
 * path answers per second). Bounded in time; what is in flight at the end is awaited. Both
 * generators return a sample: its latencies, errors and seconds (see `summarize`).
 */
export async function saturate(send, { concurrency, seconds }) {
  const latencies = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await send();
          latencies.push(performance.now() - t0);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

/** Percentiles and the rate of one or more samples (slices of one phase) taken together. */
export function summarize(...samples) {
  const sorted = samples.flatMap((sample) => sample.latencies).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  return {
    requests: sorted.length,
    errors: samples.reduce((sum, sample) => sum + sample.errors, 0),
    perSecond: sorted.length / seconds,
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
  };
}
