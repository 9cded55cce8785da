import { Agent, request as httpRequest } from 'node:http';
import type { HttpRoute } from '@likeness/contracts';
import fc from 'fast-check';
import { z } from 'zod';
import {
  FILLERS,
  contentTypes,
  deeplyNested,
  headerValue,
  hostileKey,
  hostileString,
  hostileValue,
  malformedJson,
} from './hostile.js';
import { type KnownValues, arbitraryOf } from './zod-arbitrary.js';

/** Who sends a request; the suite turns each into a Cookie header (see `SessionCookies`). */
export const SESSION_KINDS = [
  'none',
  /** The fixtures' owner, who is also the administrator (the first account registered outside production). */
  'valid',
  /** Another signed-in user, not the administrator: the admin routes refuse them. */
  'member',
  'revoked',
  'garbage',
  'unsigned',
  'tampered',
  'long-refresh',
  'oversized',
  'mangled',
] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

export interface FuzzRequest {
  method: string;
  /** The path and query as sent, byte for byte (no URL parser normalises it on the way). */
  path: string;
  headers: Record<string, string>;
  session: SessionKind;
  body?: Buffer;
  /** Send only the headers, declaring a body of this many bytes (one the server refuses by its length). */
  declaredBytes?: number;
}

export interface FuzzAnswer {
  /** `closed`: the connection ended without an answer (`text` says how); `unsendable`: Node would not send it. */
  outcome: 'answered' | 'closed' | 'timed-out' | 'unsendable';
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /**
   * Whether the whole request was on the wire when the connection ended. A server may answer
   * before reading a body it does not need and close; TCP then resets a connection whose
   * sender is still writing, and the reset can swallow the answer.
   */
  sentInFull: boolean;
}

/** The gateway's limit on a JSON body (gateway.app.ts): bodies are made at it, just under and past it. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Every request the fuzzer makes of one route: its contract's shapes, valid and mutated, and raw abuse. */
export function requestsFor(route: HttpRoute, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 19, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom('PUT', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'GET', 'DELETE') },
      ),
      path: pathFor(route, known),
      query: queryFor(route, known),
      body: bodyFor(route, known),
      session: fc.oneof(
        { weight: 3, arbitrary: fc.constant<SessionKind>(route.auth ? 'valid' : 'none') },
        { weight: 2, arbitrary: fc.constantFrom(...SESSION_KINDS) },
      ),
      headers: extraHeaders,
    })
    .map(({ method, path, query, body, session, headers }) => {
      const request: FuzzRequest = {
        method,
        path: query ? `${path}?${query}` : path,
        session,
        headers: { ...body.headers, ...headers },
        ...(body.bytes ? { body: body.bytes } : {}),
        ...(body.declaredBytes ? { declaredBytes: body.declaredBytes } : {}),
      };
      // fast-check prints a failing request this way: a megabyte body as its start and its size.
      return Object.defineProperty(request, fc.toStringMethod, { value: () => describeRequest(request) });
    });
}

/** A request in a line or a few: long paths and bodies cut short, with their sizes. */
export function describeRequest(request: FuzzRequest): string {
  const cut = (text: string, bytes: number) => (bytes > 300 ? `${text.slice(0, 300)}... (${bytes} bytes)` : text);
  return JSON.stringify({
    ...request,
    path: cut(request.path, request.path.length),
    body: request.body ? cut(request.body.subarray(0, 300).toString('utf8'), request.body.length) : undefined,
  });
}

/** The route's path with each `{name}` filled: a value its schema takes, a real one, or an attack. */
function pathFor(route: HttpRoute, known: KnownValues): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map(([, name]) => name!);
  if (names.length === 0) {
    return fc.oneof(
      { weight: 9, arbitrary: fc.constant(route.path) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          `${route.path}/`,
          `${route.path}/..`,
          `${route.path}%00`,
          `${route.path}//x`,
          route.path.toUpperCase(),
          route.path.replace('/api/', '/api//'),
          route.path.replace('/api/', '/api/./'),
          `http://evil.test${route.path}`,
          '*',
        ),
      },
    );
  }
  // The parameters as one object, so each is drawn by its name (and its real values with it).
  const valid = arbitraryOf(route.params ?? z.object({}), known) as fc.Arbitrary<Record<string, unknown>>;
  const spoiled = fc.record(
    Object.fromEntries(
      names.map((name) => [
        name,
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 2, arbitrary: hostileSegment(valid.map((values) => String(values[name]))) },
        ),
      ]),
    ),
  );
  return fc
    .tuple(valid, spoiled)
    .map(([values, spoilt]) =>
      route.path.replace(
        /\{([A-Za-z]+)\}/g,
        (_match, name: string) => spoilt[name] ?? encodePath(String(values[name])),
      ),
    );
}

/** A path segment an attacker writes: raw dots and slashes, double encodings, huge, broken escapes. */
function hostileSegment(valid: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    hostileString.map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'))),
    hostileString.map(rawPath),
    fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2e%2e%2f%2e%2e%2fmetrics',
      '..%2f..%2fhealth',
      '%252e%252e',
      '%ff',
      '%',
      '%c0%ae',
      '0',
      '-1',
      '1.5',
      '1e3',
      ' 1',
      '0x10',
      '2147483648',
      '9'.repeat(300),
    ),
    valid.map((value) => `${encodePath(value)}/..`),
    valid.map((value) => `..%2f${encodePath(value)}`),
    valid.map((value) => `${encodePath(value)}%00`),
  );
}

/** A valid parameter as a URL carries it: encoded, but the slashes of a multi-segment key kept. */
function encodePath(value: string): string {
  return value.split('/').map(encodeURIComponent).join('/');
}

/** What Node lets a client put in a request line as is (printable latin1): kept raw; the rest %-encoded. */
function rawPath(text: string): string {
  return [...text]
    .map((char) => {
      const code = char.codePointAt(0)!;
      if (code > 0x20 && code <= 0xff && code !== 0x7f) return char;
      return code >= 0xd800 && code <= 0xdfff ? '%ef%bf%bd' : encodeURIComponent(char);
    })
    .join('');
}

/** A query string: the route's own (valid or with one field spoiled), or junk. */
function queryFor(route: HttpRoute, known: KnownValues): fc.Arbitrary<string | undefined> {
  const junk = fc.oneof(
    fc.constantFrom(
      '%',
      '%ff',
      '&&&',
      '=',
      '==',
      'a=1&a=2',
      'a[b]=1',
      'a[]=1&a[]=2',
      '__proto__[admin]=1',
      `x=${'y'.repeat(9_000)}`,
    ),
    fc.dictionary(hostileKey, hostileString, { maxKeys: 3 }).map(searchOf),
  );
  if (!route.query) return fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: junk });
  const valid = arbitraryOf(route.query, known) as fc.Arbitrary<Record<string, unknown>>;
  return fc.oneof(
    { weight: 4, arbitrary: valid.map(searchOf) },
    {
      weight: 4,
      arbitrary: mutated(valid).map((value) => (isPlainObject(value) ? searchOf(value) : searchOf({ q: value }))),
    },
    { weight: 1, arbitrary: fc.tuple(valid, junk).map(([value, extra]) => `${searchOf(value)}&${extra}`) },
    { weight: 1, arbitrary: junk },
  );
}

function searchOf(value: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, item] of Object.entries(value)) {
    for (const one of Array.isArray(item) ? item : [item]) {
      if (one === undefined) continue;
      search.append(toWellFormed(name), toWellFormed(typeof one === 'string' ? one : JSON.stringify(one)));
    }
  }
  return search.toString();
}

/** A URL carries bytes, not UTF-16: an unpaired surrogate cannot be encoded into one. */
const toWellFormed = (text: string) =>
  text.replace(/[\ud800-\udfff]/g, (char, index: number, whole: string) => {
    const code = char.charCodeAt(0);
    const next = whole.charCodeAt(index + 1);
    const previous = whole.charCodeAt(index - 1);
    const paired = code < 0xdc00 ? next >= 0xdc00 && next <= 0xdfff : previous >= 0xd800 && previous < 0xdc00;
    return paired ? char : '\ufffd';
  });

interface BodyPart {
  bytes?: Buffer;
  declaredBytes?: number;
  headers: Record<string, string>;
}

function bodyFor(route: HttpRoute, known: KnownValues): fc.Arbitrary<BodyPart> {
  if (route.bodyType === 'multipart') return multipartBody;
  const json = (value: fc.Arbitrary<unknown>) => value.map((item) => Buffer.from(JSON.stringify(item) ?? 'null'));
  const valid = route.body ? arbitraryOf(route.body, known) : fc.jsonValue({ maxDepth: 3 });
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const bodies = fc.oneof(
    { weight: hasBody ? 6 : 0, arbitrary: json(valid) },
    { weight: hasBody ? 6 : 0, arbitrary: json(mutated(valid)) },
    { weight: 2, arbitrary: malformedJson },
    { weight: 1, arbitrary: json(fc.jsonValue({ maxDepth: 4 })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...FILLERS), fc.nat(512))
        .map(([value, filler, under]) => atTheLimit(value, filler, under)),
    },
  );
  return fc.oneof(
    {
      weight: 12,
      arbitrary: fc
        .record({ bytes: bodies, contentType: contentTypes, chunked: fc.boolean() })
        .map(({ bytes, contentType, chunked }) => ({
          bytes,
          headers: {
            ...(contentType === undefined ? {} : { 'content-type': contentType }),
            ...(chunked ? { 'transfer-encoding': 'chunked' } : {}),
          },
        })),
    },
    { weight: hasBody ? 2 : 1, arbitrary: fc.constant({ headers: {} }) },
    // Declared past the limit: refused by its length, before a byte of it is read.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(BODY_LIMIT_BYTES + 1, 200 * 1024 * 1024, Number.MAX_SAFE_INTEGER)
        .map((declaredBytes) => ({
          declaredBytes,
          headers: { 'content-type': 'application/json' },
        })),
    },
  );
}

/**
 * `value` as JSON padded to `under` bytes below the body limit with `filler`, in a field of its
 * own or in the first string field: text of many bytes per character sits just below the limit
 * in bytes while it holds far fewer characters, so it passes length checks and is forwarded.
 */
function atTheLimit(value: unknown, filler: string, under: number): Buffer {
  const target = BODY_LIMIT_BYTES - under;
  const holder: Record<string, unknown> = isPlainObject(value) ? { ...value } : { value };
  const field = Object.keys(holder).find((key) => typeof holder[key] === 'string') ?? 'padding';
  holder[field] = '';
  const base = Buffer.byteLength(JSON.stringify(holder));
  const perFiller = Buffer.byteLength(JSON.stringify(filler)) - 2;
  holder[field] = filler.repeat(Math.max(0, Math.floor((target - base) / perFiller)));
  return Buffer.from(JSON.stringify(holder));
}

/** A valid value with one thing wrong: a field spoiled, dropped or added, or the whole shape replaced. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.tuple(valid, fc.nat(), hostileValue).map(([value, index, replacement]) => {
      if (!isPlainObject(value)) return replacement;
      const keys = Object.keys(value);
      return keys.length === 0 ? { x: replacement } : { ...value, [keys[index % keys.length]!]: replacement };
    }),
    fc.tuple(valid, fc.nat()).map(([value, index]) => {
      if (!isPlainObject(value)) return undefined;
      const keys = Object.keys(value);
      const copy = { ...value };
      if (keys.length > 0) delete copy[keys[index % keys.length]!];
      return copy;
    }),
    fc.tuple(valid, fc.dictionary(hostileKey, hostileValue, { minKeys: 1, maxKeys: 3 })).map(([value, extra]) => {
      const copy = isPlainObject(value) ? { ...value } : { value };
      for (const [key, item] of Object.entries(extra))
        Object.defineProperty(copy, key, { value: item, enumerable: true });
      return copy;
    }),
    valid.map((value) => [value]),
    valid.map((value) => ({ data: value })),
    valid.map((value) => JSON.stringify(value)),
    fc.constantFrom(0, 'x', true, null, []).map((value) => value),
    fc.constantFrom(100, 1_000).map((depth) => JSON.parse(deeplyNested(depth, 'array')) as unknown),
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Headers that name something the gateway reads or must ignore, with made-up or hostile values. */
const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 4,
    arbitrary: fc.dictionary(
      fc.constantFrom(
        'x-forwarded-for',
        'x-forwarded-host',
        'x-forwarded-proto',
        'x-correlation-id',
        'x-likeness-internal',
        'x-likeness-user-id',
        'origin',
        'sec-fetch-site',
        'stripe-signature',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
        'range',
        'if-none-match',
        'accept',
        'accept-encoding',
        'content-encoding',
        'expect',
        'host',
        'forwarded',
        'x-forwarded-port',
        'authorization',
      ),
      headerValue,
      { minKeys: 1, maxKeys: 4 },
    ),
  },
);

const MULTIPART_FIELD = 'selfies';

/** A multipart body: real images and junk, well formed or broken in the ways parsers trip on. */
const multipartBody: fc.Arbitrary<BodyPart> = fc
  .record({
    boundary: fc.oneof(
      { weight: 6, arbitrary: fc.constant('fuzzboundary') },
      { weight: 1, arbitrary: fc.constantFrom('x', '-', 'a'.repeat(71), 'b"c', 'é', '') },
    ),
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant('multipart/form-data; boundary={b}') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'multipart/form-data',
          'multipart/form-data; boundary="{b}"',
          'multipart/form-data; boundary={b}; boundary=other',
          'multipart/form-data; boundary={b}; charset=utf-16',
          'multipart/form-data; charset=latin1; boundary={b}',
          'multipart/mixed; boundary={b}',
          'application/json',
          'text/plain',
        ),
      },
    ),
    parts: fc.array(
      fc.record({
        field: fc.oneof({ weight: 5, arbitrary: fc.constant(MULTIPART_FIELD) }, { weight: 1, arbitrary: hostileKey }),
        filename: fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom('selfie.jpg', 'a.png', 'b.webp', 'c.gif') },
          { weight: 2, arbitrary: hostileString.filter((name) => name.length < 2_000) },
          { weight: 1, arbitrary: fc.constantFrom(undefined, 'a'.repeat(100_000)) },
        ),
        /** How the name is written: quoted, RFC 5987 (`filename*`, percent-encoded), or raw latin1 bytes. */
        spelling: fc.constantFrom('quoted', 'quoted', 'extended', 'broken-extended', 'latin1'),
        type: fc.constantFrom('image/jpeg', 'image/png', 'application/octet-stream', 'text/html', ''),
        content: fc.constantFrom<FileContent>(
          'tiny-png',
          'tiny-jpeg',
          'selfie',
          'magic-only',
          'random',
          'empty',
          'huge-header',
        ),
      }),
      { minLength: 0, maxLength: 4 },
    ),
    manyParts: fc.oneof({ weight: 9, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(25) }),
    ending: fc.constantFrom('closed', 'closed', 'closed', 'unclosed', 'cut', 'no-boundary', 'preamble-only'),
    cutAt: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ boundary, contentType, parts, manyParts, ending, cutAt }) => {
    const all = [
      ...parts,
      ...Array.from({ length: manyParts }, () => ({
        field: MULTIPART_FIELD,
        filename: 'x.png',
        spelling: 'quoted',
        type: 'image/png',
        content: 'tiny-png' as const,
      })),
    ];
    const chunks: Buffer[] = [];
    for (const part of all) {
      const name = `form-data; name="${headerSafe(part.field)}"`;
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: ${name}`);
      const filename =
        part.filename === undefined
          ? Buffer.alloc(0)
          : part.spelling === 'extended'
            ? Buffer.from(`; filename*=UTF-8''${encodeURIComponent(toWellFormed(part.filename))}`)
            : part.spelling === 'broken-extended'
              ? Buffer.from(`; filename*=UTF-8''%${part.filename.length % 2 ? 'zz' : 'ff%fe'}; filename*=x''`)
              : part.spelling === 'latin1'
                ? Buffer.concat([
                    Buffer.from('; filename="'),
                    Buffer.from(headerSafe(part.filename), 'latin1'),
                    Buffer.from('"'),
                  ])
                : Buffer.from(`; filename="${headerSafe(part.filename)}"`);
      chunks.push(
        head,
        filename,
        Buffer.from(`\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`),
        fileContent(part.content),
        Buffer.from('\r\n'),
      );
    }
    let bytes = Buffer.concat(chunks);
    if (ending === 'closed') bytes = Buffer.concat([bytes, Buffer.from(`--${boundary}--\r\n`)]);
    if (ending === 'cut') bytes = bytes.subarray(0, Math.floor(bytes.length * cutAt));
    if (ending === 'no-boundary') bytes = Buffer.from('just some bytes with no boundary at all\r\n');
    if (ending === 'preamble-only') bytes = Buffer.from(`preamble\r\n--${boundary}`);
    return { bytes, headers: { 'content-type': contentType.replaceAll('{b}', boundary) } };
  });

type FileContent = 'tiny-png' | 'tiny-jpeg' | 'selfie' | 'magic-only' | 'random' | 'empty' | 'huge-header';

/** Filled in by the suite before it runs (sharp makes them): real images of each kind. */
export const sampleFiles: Partial<Record<FileContent, Buffer>> = {};

function fileContent(kind: FileContent): Buffer {
  switch (kind) {
    case 'magic-only':
      return Buffer.from([0xff, 0xd8, 0xff]);
    case 'random':
      return Buffer.from(Array.from({ length: 600 }, (_, index) => (index * 7919) % 256));
    case 'empty':
      return Buffer.alloc(0);
    case 'huge-header':
      // A PNG whose header claims 100 000 × 100 000 pixels: only its header may be read.
      return pngHeaderClaiming(100_000, 100_000);
    default:
      return sampleFiles[kind] ?? Buffer.alloc(0);
  }
}

function pngHeaderClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header.set([8, 2, 0, 0, 0], 24);
  return header;
}

/** A multipart header value holds no line breaks or NUL (they would end it); the rest is kept. */
const headerSafe = (text: string) =>
  toWellFormed(text)
    .replace(/[\r\n]/g, ' ')
    .replaceAll('\u0000', ' ');

/**
 * Sends a request exactly as given (raw path, any bytes), and reads the answer, whatever
 * happens to the connection: a server that answers and closes while the body is still on its
 * way is a normal answer; one that closes without answering is reported as status 0.
 */
export function send(
  baseUrl: string,
  fuzz: FuzzRequest,
  cookie: string | undefined,
  timeoutMs: number,
): Promise<FuzzAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    let sentInFull = false;
    let request: ReturnType<typeof httpRequest> | undefined;
    // A connection of its own, closed after the answer, so nothing one request did lingers into
    // the next; kept alive meanwhile, as a browser's is, so a server answering before it read the
    // body reads the rest rather than closing on it (a reset that could swallow the answer).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const finish = (answer: Omit<FuzzAnswer, 'sentInFull' | 'status' | 'headers'> & Partial<FuzzAnswer>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      agent.destroy();
      resolve({ status: 0, headers: {}, ...answer, sentInFull });
    };
    const timer = setTimeout(
      () => finish({ outcome: 'timed-out', text: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const chunked = fuzz.headers['transfer-encoding'] === 'chunked';
    const headers: Record<string, string> = { ...fuzz.headers, ...(cookie ? { cookie } : {}) };
    if (fuzz.declaredBytes !== undefined) headers['content-length'] = String(fuzz.declaredBytes);
    else if (fuzz.body && !chunked) headers['content-length'] = String(fuzz.body.length);
    try {
      request = httpRequest({
        hostname: url.hostname,
        port: url.port,
        method: fuzz.method,
        path: fuzz.path,
        headers,
        agent,
      });
    } catch (error) {
      // A request Node itself will not send (an invalid header): nothing to test.
      finish({ outcome: 'unsendable', text: (error as Error).message });
      return;
    }
    request.on('finish', () => (sentInFull = fuzz.declaredBytes === undefined));
    request.on('response', (response) => {
      // An event stream (GET /api/events) does not end by itself: its status and headers are the answer.
      if (String(response.headers['content-type']).startsWith('text/event-stream')) {
        finish({ outcome: 'answered', status: response.statusCode ?? 0, headers: response.headers, text: '' });
        return;
      }
      const chunks: Buffer[] = [];
      const answered = () =>
        finish({
          outcome: 'answered',
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', () => undefined);
      response.on('end', answered);
      response.on('close', answered);
    });
    request.on('error', (error) => finish({ outcome: 'closed', text: error.message }));
    if (fuzz.declaredBytes !== undefined) {
      request.flushHeaders();
      return;
    }
    if (fuzz.body) request.write(fuzz.body);
    request.end();
  });
}
