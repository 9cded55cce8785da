import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The code that sends HTTP requests, and why it may. A request to one of our own apps carries
 * the internal token, so its path must come from `internalPath` (libs/nest-kit), which keeps
 * input from climbing out of the route it names; everything else here talks to the outside.
 */
const SENDS_HTTP: Record<string, string> = {
  'gateway/src/media/media-http.client.ts': "media's internal routes, paths from internalPath",
  'services/generation/src/workers/download-output.ts': "a provider's output URL, https only",
};

/** Ways to send a request: fetch, or Node's and undici's clients. */
const SENDING = [
  /\bfetch\(/,
  /import\s*\{[^}]*\b(request|get|Agent)\b[^}]*\}\s*from\s*'node:https?'/,
  /from\s*'(undici|axios|got|node-fetch)'/,
  /\b(http|https)\.(request|get)\(/,
];

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.(spec|integration-spec)\.ts$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

describe('HTTP requests from the gateway and the services', () => {
  const sources = [
    ...sourcesUnder('gateway/src'),
    ...readdirSync(join(ROOT, 'services')).flatMap((service) => sourcesUnder(`services/${service}/src`)),
  ];

  it('should be sent only by the code that builds internal paths with internalPath, or talks to the outside', () => {
    const senders = sources.filter((path) =>
      SENDING.some((pattern) => pattern.test(readFileSync(join(ROOT, path), 'utf8'))),
    );
    expect(senders.sort()).toEqual(Object.keys(SENDS_HTTP).sort());
  });
});
