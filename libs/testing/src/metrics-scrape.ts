/** One sample of a Prometheus text exposition: `name{labels} value`. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** What a scrape of `/metrics` gave, read as a dashboard's query would read it. */
export interface MetricsScrape {
  samples: MetricSample[];
  /**
   * The sum of the samples named `name` whose labels include every one given (`{}`: all of them);
   * 0 when there are none, as `sum(...)` over no series shows nothing.
   */
  sum(name: string, labels?: Record<string, string>): number;
  /** Whether at least one sample named `name` has every one of these labels. */
  has(name: string, labels?: Record<string, string>): boolean;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Reads a Prometheus text exposition (version 0.0.4) into samples. */
export function parseMetrics(text: string): MetricsScrape {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) {
      labels[key as string] = (value as string).replace(/\\(.)/g, (_, escaped: string) =>
        escaped === 'n' ? '\n' : escaped,
      );
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  const matching = (name: string, labels: Record<string, string>) =>
    samples.filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
  return {
    samples,
    sum: (name, labels = {}) => matching(name, labels).reduce((total, sample) => total + sample.value, 0),
    has: (name, labels = {}) => matching(name, labels).length > 0,
  };
}

/** GETs `<baseUrl>/metrics` (a service's health port, the gateway's internal port) and reads it. */
export async function scrapeMetrics(baseUrl: string): Promise<MetricsScrape> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (!response.ok) throw new Error(`GET ${baseUrl}/metrics answered ${response.status}`);
  return parseMetrics(await response.text());
}
