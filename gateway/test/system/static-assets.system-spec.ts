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
    ['/', 'pages/index.html', /^text\/html/],
    ['/about', 'pages/about.html', /^text\/html/],
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

/** What a reader sees of an HTML page without running its scripts: its text, tags and comments left out. */
function visibleText(html: string): string {
  const body = html.slice(html.indexOf('<body'));
  return body
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

function titleOf(html: string): string | undefined {
  return /<title>([^<]*)<\/title>/.exec(html)?.[1];
}

function metaContent(html: string, key: string): string | undefined {
  return new RegExp(`<meta\\s+(?:name|property)="${key}"\\s+content="([^"]*)"`).exec(html)?.[1];
}

describe('the public pages through the gateway', () => {
  it('should send the landing page drawn in its HTML, before any script runs', async () => {
    const html = decoded(await get('/', 'gzip, br')).toString('utf8');
    const text = visibleText(html);

    expect(text).toContain('Turn your selfies into realistic AI photos');
    for (const section of [
      'From selfies to studio photos in four steps',
      'One model, endless looks',
      'Pay only for what you create',
      'Loved by creators',
      'Ready to Train Your Personal AI Model?',
    ]) {
      expect(text).toContain(section);
    }
    expect(text).toContain('Each generation costs 5 credits');
    expect(text).toMatch(/How It Works .*Examples .*Scene Explorer .*Pricing/);
    expect(text).toContain('© 2025 Likeness. All rights reserved.');
    // The hero's four examples are in the HTML, fetched first.
    expect(html.match(/<img [^>]*fetchpriority="high"/gi)).toHaveLength(4);
    expect(html).toMatch(
      /<source type="image\/avif" srcset="\/images\/examples\/professional-headshot-320\.avif 320w/i,
    );
    expect(titleOf(html)).toBe('Likeness — AI avatars from your selfies');
    expect(metaContent(html, 'og:title')).toBe('Likeness — AI avatars from your selfies');
    expect(metaContent(html, 'og:image')).toBe('/images/share-preview.jpg');
  });

  it.each([
    ['/about', 'About Likeness', 'About · Likeness'],
    ['/privacy-policy', 'Last updated June 14, 2025', 'Privacy Policy · Likeness'],
    ['/terms-of-service', 'Last updated June 14, 2025', 'Terms of Service · Likeness'],
    ['/cookie-policy', 'Last updated June 14, 2025', 'Cookie Policy · Likeness'],
    ['/scene-explorer', 'Transformation Scene Explorer', 'Transformation Scene Explorer · Likeness'],
  ])('should send %s drawn, with its own title and link preview', async (path, content, title) => {
    const html = decoded(await get(path, 'gzip, br')).toString('utf8');

    expect(visibleText(html)).toContain(content);
    expect(titleOf(html)).toBe(title);
    expect(metaContent(html, 'og:title')).toBe(title);
    expect(metaContent(html, 'description')).toBe(metaContent(html, 'og:description'));
    expect(metaContent(html, 'description')).not.toBe(
      metaContent(readFileSync(join(DIST, 'index.html'), 'utf8'), 'description'),
    );
  });

  it('should send a signed-in screen the empty app shell, drawn by the app', async () => {
    const html = decoded(await get('/dashboard', 'gzip')).toString('utf8');

    expect(html).toContain('<div id="root"></div>');
    expect(visibleText(html).trim()).toBe('');
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
