import { readFileSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ROOT } from '@likeness/testing';
import { type RunningStack, startTestStack } from './stack-harness.js';

const DIST = join(ROOT, 'frontend/dist');
const IMMUTABLE = 'public, max-age=31536000, immutable';

let stack: RunningStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.shutdown();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes on the wire, still encoded. */
  body: Buffer;
}

/** A GET whose body is not decoded on the way (fetch would decompress it and hide the bytes sent). */
function get(path: string, acceptEncoding?: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(stack.url);
  const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function decoded({ headers, body }: RawAnswer): Buffer {
  switch (headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(body);
    case 'gzip':
      return gunzipSync(body);
    case undefined:
      return body;
    default:
      throw new Error(`Unexpected encoding ${String(headers['content-encoding'])}`);
  }
}

function varyNames(answer: RawAnswer): string[] {
  return String(answer.headers['vary'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
}

/** The build's main script, as index.html names it. */
function entryScript(): string {
  const match = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(
    readFileSync(join(DIST, 'index.html'), 'utf8'),
  );
  if (!match?.[1]) throw new Error('index.html names no entry script');
  return match[1];
}

describe('the SPA files through the gateway', () => {
  it.each([
    ['br', 'gzip, deflate, br'],
    ['gzip', 'gzip, deflate'],
    ['gzip', 'br;q=0, gzip'],
  ])('should send a hashed script as %s for "Accept-Encoding: %s", cached for a year', async (encoding, accept) => {
    const path = entryScript();
    const answer = await get(path, accept);

    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(answer.headers['cache-control']).toBe(IMMUTABLE);
    expect(varyNames(answer)).toContain('accept-encoding');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(readFileSync(join(DIST, path)).length);
    expect(decoded(answer).equals(readFileSync(join(DIST, path)))).toBe(true);
  });

  it('should send the file itself to a client that accepts no compression', async () => {
    const path = entryScript();
    const answer = await get(path);

    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(varyNames(answer)).toContain('accept-encoding');
    expect(answer.body.equals(readFileSync(join(DIST, path)))).toBe(true);
  });

  it.each([
    ['/', 'index.html', /^text\/html/],
    ['/dashboard', 'index.html', /^text\/html/],
    ['/sw.js', 'sw.js', /javascript/],
    ['/manifest.webmanifest', 'manifest.webmanifest', /^application\/manifest\+json/],
  ])('should send %s compressed and revalidated on every use', async (path, file, type) => {
    const answer = await get(path, 'gzip, br');

    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(type);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(decoded(answer).equals(readFileSync(join(DIST, file)))).toBe(true);
  });

  it('should publish no source map', async () => {
    const files = readdirSync(DIST, { recursive: true }).map(String);
    const script = entryScript();

    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(readFileSync(join(DIST, script), 'utf8')).not.toContain('sourceMappingURL');
    expect((await get(`${script}.map`, 'gzip')).status).toBe(404);
    expect((await get('/sw.js.map')).status).toBe(404);
  });
});

describe('JSON answers through the gateway', () => {
  it('should compress a large JSON answer with brotli and keep it byte for byte', async () => {
    const plain = await get('/api/docs');
    const answer = await get('/api/docs', 'gzip, deflate, br');

    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(varyNames(answer)).toContain('accept-encoding');
    expect(answer.body.length).toBeLessThan(plain.body.length / 4);
    expect(decoded(answer).equals(plain.body)).toBe(true);
  });

  it('should gzip it for a client without brotli', async () => {
    const answer = await get('/api/docs', 'gzip');

    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(answer).toString('utf8'))).toHaveProperty('openapi');
  });

  it('should leave a small JSON answer as it is', async () => {
    const answer = await get('/api/user', 'gzip, br');

    expect(answer.status).toBe(401);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString('utf8'))).toHaveProperty('message');
  });
});
