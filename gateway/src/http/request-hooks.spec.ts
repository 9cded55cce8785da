import { type AddressInfo, connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerCloseUnreadBodies } from './request-hooks.js';

/** Sends the bytes and reads the answer; whether the server closed the connection after it. */
function exchange(port: number, bytes: string): Promise<{ head: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const answered = () => resolve({ head: text.split('\r\n\r\n')[0]!.toLowerCase(), closedByServer: false });
    const timer = setTimeout(() => {
      socket.destroy();
      answered();
    }, 1_000);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => {
      clearTimeout(timer);
      resolve({ head: text.split('\r\n\r\n')[0]!.toLowerCase(), closedByServer: true });
      socket.destroy();
    });
    socket.write(bytes);
  });
}

describe(registerCloseUnreadBodies.name, () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify();
    registerCloseUnreadBodies(app, 200);
    app.get('/packages', async () => ({ ok: true }));
    app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
    // Refused before reading the body, as a guard or a declared length would.
    app.post('/upload', async (_request, reply) => reply.code(413).send({ refused: true }));
    app.post('/json', async (request) => request.body);
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await app.close();
  });

  it('should close the connection of a request whose declared body never comes, after its answer', async () => {
    const answer = await exchange(port, 'GET /packages HTTP/1.1\r\nHost: x\r\nContent-Length: 209715200\r\n\r\n');
    expect(answer.head).toMatch(/^http\/1\.1 200/);
    expect(answer.closedByServer).toBe(true);
  });

  it('should close the connection of an upload refused before it was read, once its sender stops', async () => {
    const answer = await exchange(
      port,
      'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 104857600\r\n\r\n--x\r\n',
    );
    expect(answer.head).toMatch(/^http\/1\.1 413/);
    expect(answer.closedByServer).toBe(true);
  });

  it('should keep the connection of a refused upload whose body arrives, and of a request read in full', async () => {
    const body = `--x\r\n${'y'.repeat(64 * 1024)}`;
    const refused = await exchange(
      port,
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(refused.head).toMatch(/^http\/1\.1 413/);
    expect(refused.closedByServer).toBe(false);

    const read = await exchange(
      port,
      'POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{"a":12}',
    );
    expect(read.head).toMatch(/^http\/1\.1 200/);
    expect(read.closedByServer).toBe(false);
  });
});
