import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { type Avatar, MediaRpc, type UploadedImage, errorBodySchema } from '@likeness/contracts';
import { LocalObjectStorage } from '@likeness/storage';
import { createTestRpcClient, freePort } from '@likeness/testing';
import { type Session, apiClient, photo } from './api-client.js';
import { type RunningStack, expectError, startTestStack } from './stack-harness.js';

let stack: RunningStack;
let api: ReturnType<typeof apiClient>;
let metricsPort: number;

interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json?: unknown;
}

/**
 * A request sent exactly as written: fetch (WHATWG URL) would normalise `%2e%2e` and `..`
 * away before sending, and never send a malformed request at all.
 */
function raw(
  path: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResult> {
  const { hostname, port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, path, method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const isJson = response.headers['content-type']?.includes('application/json') ?? false;
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text,
          json: isJson && text ? JSON.parse(text) : undefined,
        });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Bytes straight onto a socket, for what no HTTP client would send; the answer parsed by hand. */
function rawSocket(bytes: string): Promise<RawResult> {
  const { hostname, port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const body = rest.join('\r\n\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        text: body,
        json: headers['content-type']?.includes('application/json') ? JSON.parse(body) : undefined,
      });
    });
    socket.end(bytes);
  });
}

/** The headers helmet gives every answer. */
function expectSecurityHeaders(result: RawResult): void {
  expect(result.headers).toMatchObject({
    'content-security-policy': expect.stringContaining("default-src 'self'"),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'strict-transport-security': expect.stringContaining('max-age='),
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  });
}

/** A refusal in the contract's error format, with the security headers, never cached. */
function expectRefusal(result: RawResult, status: number, code: string, message?: RegExp): void {
  expectError(result, status, code, message);
  expectSecurityHeaders(result);
  expect(result.headers['cache-control']).toBe('no-store');
}

beforeAll(async () => {
  metricsPort = await freePort();
  stack = await startTestStack({}, { appEnv: { gateway: { METRICS_PORT: String(metricsPort) } } });
  api = apiClient(stack.url, '198.51.100');
});

afterAll(async () => {
  await stack?.shutdown();
});

describe('paths from the public gateway to media', () => {
  let ada: Session;
  let selfie: UploadedImage;

  beforeAll(async () => {
    ada = await api.register('ada_edge');
    await api.uploadSelfies(ada, 1);
    [selfie] = (await api.call('/api/uploaded-images', { session: ada })).json as UploadedImage[];
  });

  it.each([
    '/api/files/%2e%2e/%2e%2e/metrics',
    '/api/files/%2e%2e/%2e%2e/health',
    '/api/files/%2E%2E/%2E%2E/health/live',
    '/api/files/.%2e/.%2e/metrics',
    '/api/files/%2e%2e/%2e%2e/internal/selfies',
    '/api/files/../../metrics',
    '/api/files/..%2f..%2fmetrics',
    '/api/files/..%2F..%2Fhealth',
    '/api/files/%252e%252e/%252e%252e/metrics',
    '/api/files/..%252f..%252fmetrics',
    '/api/files/..\\..\\metrics',
    '/api/files/..%5c..%5cmetrics',
    '/api/shared/avatars/%2e%2e/%2e%2e/metrics',
    '/api/shared/avatars/%2e%2e/%2e%2e/health',
    '/api/shared/avatars/..%2f..%2fmetrics',
    '/api/shared/avatars/%252e%252e%252f%252e%252e%252fmetrics',
    '/api/shared/avatars/..\\..\\health',
  ])("should answer %s with a JSON 404, never media's metrics or health", async (path) => {
    const result = await raw(path);
    expectRefusal(result, 404, 'COMMON.NOT_FOUND');
    expect(result.text).not.toMatch(/# HELP|# TYPE|process_cpu|"database"|"status":"ok"/);
  });

  it('should refuse a signed URL with a climb appended, and still serve the URL as signed', async () => {
    const [path = '', query = ''] = selfie.imageUrl.split('?');
    const climbed = await raw(`${path}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/metrics?${query}`);
    expectRefusal(climbed, 404, 'COMMON.NOT_FOUND');
    expect(climbed.text).not.toMatch(/# HELP/);

    const image = await raw(selfie.imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
  });

  it('should forward only the signature and expiry of a signed URL', async () => {
    const image = await raw(`${selfie.imageUrl}&signature=forged`);
    expectRefusal(image, 404, 'COMMON.NOT_FOUND');
    expect((await raw(`${selfie.imageUrl}&utm_source=mail`)).status).toBe(200);
  });
});

describe('refusals before a route runs', () => {
  it('should answer an address too long for the parser with a JSON 414', async () => {
    expectRefusal(await raw(`/api/files/${'a'.repeat(20_000)}`), 414, 'COMMON.URI_TOO_LONG');
  });

  it('should answer a path parameter past its limit with a JSON 414', async () => {
    // (A GET falls through to the SPA's catch-all route instead: a JSON 404 under /api.)
    expectRefusal(await raw(`/api/avatars/${'1'.repeat(300)}`, { method: 'DELETE' }), 414, 'COMMON.URI_TOO_LONG');
    expectRefusal(await raw(`/api/generation-jobs/${'a'.repeat(300)}`), 404, 'COMMON.NOT_FOUND');
  });

  it('should answer headers too large with a JSON 431', async () => {
    expectRefusal(
      await raw('/api/credit-packages', { headers: { 'x-padding': 'a'.repeat(20_000) } }),
      431,
      'COMMON.HEADERS_TOO_LARGE',
    );
  });

  it('should answer a malformed request line with a JSON 400', async () => {
    expectRefusal(await rawSocket('GARBAGE\r\n\r\n'), 400, 'COMMON.VALIDATION_FAILED');
    expectRefusal(
      await rawSocket('GET /api/credit-packages HTTP/9.9\r\nHost: x\r\n\r\n'),
      400,
      'COMMON.VALIDATION_FAILED',
    );
  });

  it('should answer a bad Content-Length with a JSON 400', async () => {
    expectRefusal(
      await rawSocket(
        'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
      ),
      400,
      'COMMON.VALIDATION_FAILED',
      /Content-Length/,
    );
    expectRefusal(
      await rawSocket('POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'),
      400,
      'COMMON.VALIDATION_FAILED',
    );
  });

  it('should answer unparsable JSON and a malformed escape in the address with a JSON 400', async () => {
    expectRefusal(
      await raw('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"username":',
      }),
      400,
      'COMMON.VALIDATION_FAILED',
    );
    expectRefusal(await raw('/api/%zz'), 400, 'COMMON.VALIDATION_FAILED');
  });

  it('should answer a request target that is no path (`*`) in the error format, with the security headers', async () => {
    for (const method of ['GET', 'OPTIONS', 'HEAD']) {
      const result = await raw('*', { method });
      expect(result.status).toBe(404);
      expectSecurityHeaders(result);
      expect(result.headers['x-correlation-id']).toEqual(expect.any(String));
      if (method !== 'HEAD') expectRefusal(result, 404, 'COMMON.NOT_FOUND');
    }
  });

  it('should answer an Expect header it cannot meet with a JSON 417', async () => {
    expectRefusal(
      await raw('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', expect: 'the-impossible' },
        body: '{}',
      }),
      417,
      'COMMON.EXPECTATION_FAILED',
    );
  });
});

describe('request body types', () => {
  let bob: Session;

  beforeAll(async () => {
    bob = await api.register('bob_edge');
  });

  it.each([
    ['application/x-www-form-urlencoded', 'username=ada_edge&password=secret-password'],
    ['text/plain', '{"username":"ada_edge","password":"secret-password"}'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nada\r\n--x--\r\n',
    ],
    ['application/xml', '<login/>'],
  ])('should refuse a %s body on a JSON route with 415', async (type, body) => {
    const result = await raw('/api/login', { method: 'POST', headers: { 'content-type': type }, body });
    expectRefusal(result, 415, 'COMMON.UNSUPPORTED_MEDIA_TYPE', /Content-Type: application\/json/);
    expect(result.headers['set-cookie']).toBeUndefined();
  });

  it('should refuse anything but multipart on the upload route with 415', async () => {
    const result = await raw('/api/upload-selfies', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: bob.cookie },
      body: '{"selfies":[]}',
    });
    expectRefusal(result, 415, 'COMMON.UNSUPPORTED_MEDIA_TYPE', /multipart\/form-data/);
  });

  it('should keep webhooks on their JSON bodies, and refuse a form there too', async () => {
    const json = await raw('/api/webhooks/stripe', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"id":"evt_1"}',
    });
    expectRefusal(json, 400, 'BILLING.WEBHOOK_INVALID');
    const form = await raw('/api/webhooks/replicate', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'id=1',
    });
    expectRefusal(form, 415, 'COMMON.UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('caching', () => {
  let carol: Session;
  let avatar: Avatar;

  beforeAll(async () => {
    carol = await api.register('carol_edge');
    await api.uploadSelfies(carol, 1);
    // What a generation worker does: stage the bytes, then ask media to keep them.
    const storage = new LocalObjectStorage(join(stack.env['DATA_DIR']!, 'objects'));
    const stagingKey = `staging/system-test/${randomBytes(8).toString('hex')}.png`;
    await storage.put(stagingKey, await photo('png', 256), { contentType: 'image/png' });
    const client = await createTestRpcClient(stack.env['NATS_URL']!, stack.env['NATS_NAMESPACE']!);
    try {
      const userId = ((await api.call('/api/user', { session: carol })).json as { id: number }).id;
      avatar = await client.rpc.call(MediaRpc.storeAvatar, {
        userId,
        promptText: 'carol as a painter',
        customModelId: null,
        stagingKey,
        sourceRef: 'edge-test:0',
      });
    } finally {
      await client.close();
    }
  });

  it('should tell caches to keep no API answer', async () => {
    for (const path of ['/api/user', '/api/auth/me', '/api/uploaded-images', '/api/avatars', '/api/credit-packages']) {
      const result = await api.call(path, { session: carol });
      expect({ path, status: result.status, cacheControl: result.headers.get('cache-control') }).toEqual({
        path,
        status: 200,
        cacheControl: 'no-store',
      });
    }
    expect((await api.call('/api/nothing-here')).headers.get('cache-control')).toBe('no-store');
    expect((await api.call('/api/user')).headers.get('cache-control')).toBe('no-store');
  });

  it('should keep a signed image private and a shared one briefly public, as media says', async () => {
    const [selfie] = (await api.call('/api/uploaded-images', { session: carol })).json as UploadedImage[];
    expect((await api.call(selfie!.imageUrl)).headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect((await api.call(avatar.imageUrl)).headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect((await api.call(avatar.shareUrl)).headers.get('cache-control')).toBe('public, max-age=300');
    const download = await api.call(`/api/image-formatter?url=${encodeURIComponent(avatar.imageUrl)}&format=png`, {
      session: carol,
    });
    expect(download.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('validation messages', () => {
  it('should not name the fields of a webhook the gateway forwards', async () => {
    const stripe = await raw('/api/webhooks/stripe', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
      body: JSON.stringify({ padding: 'x'.repeat(600 * 1024) }),
    });
    expectRefusal(stripe, 400, 'COMMON.VALIDATION_FAILED', /^The request is not valid\.$/);
    expect(errorBodySchema.parse(stripe.json).issues).toBeUndefined();
    expect(stripe.text).not.toMatch(/payload|signature/);

    const replicate = await raw('/api/webhooks/replicate', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'x'.repeat(300) },
      body: '{}',
    });
    expectRefusal(replicate, 400, 'COMMON.VALIDATION_FAILED', /^The request is not valid\.$/);
    expect(replicate.text).not.toMatch(/webhook-id|headers/);
  });

  it('should not name the session token the gateway reads from a cookie', async () => {
    const result = await raw('/api/user', { headers: { cookie: `likeness_refresh=${'r'.repeat(600)}` } });
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
    expect(errorBodySchema.parse(result.json).issues).toBeUndefined();
    expect(result.text).not.toMatch(/refreshToken/);
  });
});

describe('metrics', () => {
  const scrape = async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  it('should count answers by route template on the internal port, never by the path a client chose', async () => {
    const unknownId = '7c9e6679-7425-40de-944c-e07c0f6a1b55';
    expect((await raw(`/api/avatars/${unknownId}`, { method: 'DELETE' })).status).toBe(401);
    expect((await raw(`/api/${randomBytes(8).toString('hex')}`)).status).toBe(404);

    const text = await scrape();
    expect(text).toMatch(
      /likeness_http_request_seconds_count\{method="DELETE",route="\/api\/avatars\/:id",status="401"\} [1-9]/,
    );
    expect(text).toMatch(/likeness_http_request_seconds_count\{method="GET",route="\/\*",status="404"\} [1-9]/);
    expect(text).not.toContain(unknownId);
  });

  it('should not serve metrics on the public port', async () => {
    const response = await raw('/metrics');
    expect(response.text).not.toContain('likeness_http_request_seconds');
  });
});
