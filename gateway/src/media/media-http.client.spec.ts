import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MediaInternalHttp } from '@likeness/contracts';
import { DomainError, INTERNAL_AUTH_HEADER, internalAuthToken } from '@likeness/nest-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../gateway.config.js';
import { sendError } from '../http/http-errors.js';
import { MediaHttpClient } from './media-http.client.js';

const SECRET = 'a-media-secret-of-at-least-32-characters!';
const KEY = 'users/7/selfies/0b6f6a52-3f5e-4d7c-a0c1-1b2c3d4e5f60.jpg';
const SIGNED = { expires: '1767225600', signature: 'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmE' };
const UPLOADED = {
  uploadedFiles: [
    {
      id: 1,
      imageUrl: '/api/files/x',
      thumbnailUrl: '/api/files/y',
      originalFilename: 'me.jpg',
      inUse: false,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
  ],
};

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/** A stand-in for media's HTTP port: records what it was asked, answers as a test says. */
async function mediaStandIn() {
  const seen: { url: string; token: string | undefined }[] = [];
  let answer: Answer = (_request, response) => response.end();
  const server: Server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', token: request.headers[INTERNAL_AUTH_HEADER] as string | undefined });
    request.resume();
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answerWith: (next: Answer) => {
      answer = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const json =
  (status: number, body: unknown): Answer =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

describe(MediaHttpClient.name, () => {
  let media: Awaited<ReturnType<typeof mediaStandIn>>;
  let sut: MediaHttpClient;
  let app: FastifyInstance;

  beforeAll(async () => {
    media = await mediaStandIn();
    sut = new MediaHttpClient({ MEDIA_URL: media.url, MEDIA_SECRET: SECRET } as GatewayConfig);
    app = Fastify();
    app.post('/upload', async (request, reply) => {
      try {
        return await sut.json(MediaInternalHttp.uploadSelfies, { userId: 7 });
      } catch (error) {
        sendError(reply, request, error);
        return reply;
      }
    });
    app.get('/file', async (request, reply) => {
      try {
        return await sut.relayBytes(MediaInternalHttp.signedFile, { params: { key: KEY }, query: SIGNED }, reply);
      } catch (error) {
        sendError(reply, request, error);
        return reply;
      }
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await media.close();
  });

  beforeEach(() => {
    media.seen.length = 0;
  });

  describe('json', () => {
    const upload = () => sut.json(MediaInternalHttp.uploadSelfies, { userId: 7 });

    it('should give the reply parsed by its contract', async () => {
      media.answerWith(json(201, UPLOADED));
      await expect(upload()).resolves.toEqual(UPLOADED);
      expect(media.seen).toEqual([{ url: '/internal/selfies', token: internalAuthToken(SECRET) }]);
    });

    it.each([
      ['a reply missing a field', json(201, { uploadedFiles: [{ id: 1 }] })],
      ['a reply of another shape', json(201, ['a'])],
      ['a success status the contract does not name', json(200, UPLOADED)],
      [
        'a body that is not JSON',
        (_request: IncomingMessage, response: ServerResponse) => response.writeHead(201).end('<html>'),
      ],
      ['an error without the error body', json(502, { error: 'Bad Gateway', stack: 'at x (y.ts:1)' })],
      [
        'a refusal of the internal token',
        json(401, { status: 401, code: 'AUTH.UNAUTHENTICATED', message: 'Only Likeness services may call this.' }),
      ],
    ])('should answer %s with an internal error that reveals nothing', async (_what, answer) => {
      media.answerWith(answer);
      const error = await upload().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).toBody()).toEqual({
        status: 500,
        code: 'COMMON.INTERNAL',
        message: 'Something went wrong on our side. Please try again.',
      });
    });

    it("should rebuild media's error from its code, whatever status it came with", async () => {
      media.answerWith(
        json(418, {
          status: 418,
          code: 'MEDIA.UPLOAD_LIMIT_REACHED',
          message: 'Full.',
          issues: [{ path: 'selfies', message: 'Full.' }],
        }),
      );
      const error = (await upload().catch((caught: unknown) => caught)) as DomainError;
      expect(error.toBody()).toEqual({
        status: 409,
        code: 'MEDIA.UPLOAD_LIMIT_REACHED',
        message: 'Full.',
        issues: [{ path: 'selfies', message: 'Full.' }],
      });
    });
  });

  describe("media's Retry-After", () => {
    const OVER_BUDGET = "You're uploading a lot right now. Please wait a minute and try again.";
    const refusal =
      (status: number, code: string, retryAfter: string): Answer =>
      (_request, response) => {
        response
          .writeHead(status, { 'content-type': 'application/json', 'retry-after': retryAfter })
          .end(
            JSON.stringify({ status, code, message: OVER_BUDGET, issues: [{ path: 'selfies', message: OVER_BUDGET }] }),
          );
      };

    it.each(['/upload', '/file'])("should relay it with media's 429 and its message (%s)", async (path) => {
      media.answerWith(refusal(429, 'COMMON.RATE_LIMITED', '7'));
      const response = await app.inject({ method: path === '/upload' ? 'POST' : 'GET', url: path });
      expect(response.statusCode).toBe(429);
      expect(response.headers['retry-after']).toBe('7');
      expect(response.json()).toEqual({
        status: 429,
        code: 'COMMON.RATE_LIMITED',
        message: OVER_BUDGET,
        issues: [{ path: 'selfies', message: OVER_BUDGET }],
        retryAfterSeconds: 7,
      });
    });

    it.each([
      ['on another refusal', refusal(409, 'MEDIA.UPLOAD_LIMIT_REACHED', '7')],
      ['that is not a number of seconds', refusal(429, 'COMMON.RATE_LIMITED', 'soon')],
    ])('should not relay one %s', async (_what, answer) => {
      media.answerWith(answer);
      const response = await app.inject({ method: 'POST', url: '/upload' });
      expect(response.headers['retry-after']).toBeUndefined();
      expect(response.json()).toMatchObject({ message: OVER_BUDGET });
    });
  });

  describe('relayBytes', () => {
    it("should send the path built from the contract's template and relay the image", async () => {
      media.answerWith((_request, response) =>
        response
          .writeHead(200, {
            'content-type': 'image/jpeg',
            'cache-control': 'private, max-age=60',
            'x-internal': 'secret',
          })
          .end('jpeg'),
      );
      const response = await app.inject('/file');
      expect(media.seen[0]?.url).toBe(`/internal/files/${KEY}?expires=${SIGNED.expires}&signature=${SIGNED.signature}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('jpeg');
      expect(response.headers['cache-control']).toBe('private, max-age=60');
      expect(response.headers['x-internal']).toBeUndefined();
    });

    it('should relay nothing of an answer whose content type the contract does not list', async () => {
      media.answerWith((_request, response) =>
        response.writeHead(200, { 'content-type': 'text/plain' }).end('# HELP metrics'),
      );
      const response = await app.inject('/file');
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        status: 500,
        code: 'COMMON.INTERNAL',
        message: 'Something went wrong on our side. Please try again.',
      });
    });

    it('should refuse to call with a value outside the contract, before sending anything', async () => {
      const reply = { status: () => reply } as never;
      await expect(
        sut.relayBytes(MediaInternalHttp.signedFile, { params: { key: '../../metrics' }, query: SIGNED }, reply),
      ).rejects.toMatchObject({ code: 'COMMON.VALIDATION_FAILED' });
      await expect(
        sut.relayBytes(MediaInternalHttp.sharedAvatar, { params: { token: '%2e%2e%2f%2e%2e%2fmetrics' } }, reply),
      ).rejects.toMatchObject({ code: 'COMMON.VALIDATION_FAILED' });
      expect(media.seen).toEqual([]);
    });
  });
});
