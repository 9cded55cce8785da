import { type Server, createServer } from 'node:http';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { errorBodySchema } from '@likeness/contracts';
import { createLogger } from '@likeness/nest-kit';
import { clientErrorHandler, expectationFailedHandler } from './client-errors.js';

const logger = createLogger({ name: 'test', level: 'silent', format: 'json' });

/** Bytes onto a socket, and everything that comes back until the server closes it. */
function exchange(port: number, bytes: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head.toLowerCase(), body });
    });
    socket.end(bytes);
  });
}

describe('answers written outside Fastify', () => {
  let server: Server;
  let port: number;
  let handled = 0;

  beforeAll(async () => {
    server = createServer({ maxHeaderSize: 4096 }, (_request, response) => {
      handled += 1;
      response.end('handled');
    });
    server.on('clientError', clientErrorHandler(logger));
    server.on('checkExpectation', expectationFailedHandler(logger));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('should refuse an Expect header other than 100-continue with 417 in the error format, and close', async () => {
    const answer = await exchange(
      port,
      'POST /api/login HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    );
    expect(answer.status).toBe(417);
    expect(errorBodySchema.parse(JSON.parse(answer.body))).toMatchObject({
      status: 417,
      code: 'COMMON.EXPECTATION_FAILED',
    });
    expect(answer.headers).toContain('x-content-type-options: nosniff');
    expect(answer.headers).toContain('cache-control: no-store');
    expect(handled).toBe(0);
  });

  it('should answer a request line the parser refuses in the error format, and close', async () => {
    const answer = await exchange(port, 'GET /\u0001 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(errorBodySchema.parse(JSON.parse(answer.body)).code).toBe('COMMON.VALIDATION_FAILED');
    expect(answer.headers).toContain('x-content-type-options: nosniff');
  });

  it('should answer a HEAD request the parser refuses without a body', async () => {
    const cookie = `cookie: likeness_access=${'a'.repeat(8_000)}\r\n`;
    const head = await exchange(port, `HEAD /api/user HTTP/1.1\r\nHost: x\r\n${cookie}\r\n`);
    expect(head.status).toBe(431);
    expect(head.headers).toContain('content-type: application/json');
    expect(head.body).toBe('');

    const get = await exchange(port, `GET /api/user HTTP/1.1\r\nHost: x\r\n${cookie}\r\n`);
    expect(get.status).toBe(431);
    expect(errorBodySchema.parse(JSON.parse(get.body)).code).toBe('COMMON.HEADERS_TOO_LARGE');
  });

  it('should leave no connection open once the refusals are answered', async () => {
    await Promise.all([
      exchange(port, 'NOT HTTP\r\n\r\n'),
      exchange(port, `GET /${'a'.repeat(100_000)} HTTP/1.1\r\n\r\n`),
      exchange(port, 'POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n'),
    ]);
    const open = await new Promise<number>((resolve, reject) =>
      server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
    expect(open).toBe(0);
  });

  it('should destroy a connection reset by its client rather than leave it', () => {
    const calls: string[] = [];
    const socket = {
      destroyed: false,
      writable: true,
      destroy: () => calls.push('destroy'),
      end: () => calls.push('end'),
    };
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    clientErrorHandler(logger)(reset, socket as unknown as Socket);
    expect(calls).toEqual(['destroy']);
  });
});
