import { ADMIN_ONLY_MESSAGE, RPC_CALLER_ID_HEADER, RPC_CALLER_ROLE_HEADER, defineRpc } from '@likeness/contracts';
import {
  DomainError,
  RpcHandler,
  RpcServer,
  currentCaller,
  currentCorrelationId,
  discoverRpcHandlers,
  runWithCorrelation,
} from '@likeness/nest-kit';
import { headers } from '@nats-io/transport-node';
import { createTestRpcClient, testNamespace, testNatsUrl } from '../src/index.js';
import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { z } from 'zod';

const echo = defineRpc({
  subject: 'billing.test.echo',
  request: z.object({
    text: z.string().min(2, { error: 'Text must be at least 2 characters' }),
    times: z.number().int().default(1),
  }),
  response: z.object({ text: z.string(), correlationId: z.string().optional() }),
});
const slow = defineRpc({
  subject: 'billing.test.slow',
  request: z.object({ ms: z.number().int() }),
  response: z.object({ waited: z.number() }),
});
const fail = defineRpc({
  subject: 'billing.test.fail',
  request: z.object({ kind: z.enum(['domain', 'crash', 'bad-reply']) }),
  response: z.object({ ok: z.boolean() }),
});
const adminOnly = defineRpc({
  subject: 'billing.test.admin-only',
  request: z.object({ note: z.string() }),
  response: z.object({ note: z.string(), callerId: z.number(), callerRole: z.string() }),
  requiredRole: 'admin',
});

@Controller()
class TestController {
  @RpcHandler(adminOnly)
  adminOnly(request: z.output<typeof adminOnly.request>) {
    const caller = currentCaller();
    if (!caller) throw new Error('An admin-only handler ran without a caller');
    return { note: request.note, callerId: caller.userId, callerRole: caller.role };
  }

  @RpcHandler(echo)
  echo(request: z.output<typeof echo.request>) {
    const correlationId = currentCorrelationId();
    return { text: request.text.repeat(request.times), ...(correlationId ? { correlationId } : {}) };
  }

  @RpcHandler(slow)
  async slow(request: z.output<typeof slow.request>) {
    await new Promise((resolve) => setTimeout(resolve, request.ms));
    return { waited: request.ms };
  }

  @RpcHandler(fail)
  async fail(request: z.output<typeof fail.request>) {
    if (request.kind === 'domain') throw new DomainError('COMMON.NOT_FOUND', 'No such thing.');
    if (request.kind === 'crash') throw new Error('connection string postgres://secret@db leaked?');
    return { ok: 'yes' } as unknown as { ok: boolean };
  }
}

@Module({ controllers: [TestController] })
class TestModule {}

describe(RpcServer.name, () => {
  const namespace = testNamespace('rpc');
  let app: INestMicroservice;
  let client: Awaited<ReturnType<typeof createTestRpcClient>>;

  beforeAll(async () => {
    const server = new RpcServer({
      url: testNatsUrl(),
      queue: 'billing',
      namespace,
      name: 'rpc-test',
      gracePeriodMs: 1000,
    });
    app = await NestFactory.createMicroservice(TestModule, { strategy: server, logger: false });
    await app.init();
    server.serve(discoverRpcHandlers(app));
    await app.listen();
    client = await createTestRpcClient(testNatsUrl(), namespace);
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  it('should answer with the parsed request, defaults applied', async () => {
    await expect(client.rpc.call(echo, { text: 'ab', times: 2 })).resolves.toMatchObject({ text: 'abab' });
    await expect(client.rpc.call(echo, { text: 'ok' })).resolves.toMatchObject({ text: 'ok' });
  });

  it("should carry the caller's correlation id to the handler", async () => {
    const reply = await runWithCorrelation('corr-123', () => client.rpc.call(echo, { text: 'hi' }));
    expect(reply.correlationId).toBe('corr-123');
  });

  it('should refuse an invalid request with a 400 error naming the problem', async () => {
    const reply = await client.connection.request(
      `${namespace}.billing.test.echo`,
      JSON.stringify({ pattern: 'billing.test.echo', data: { text: 'x' }, id: '1' }),
      { timeout: 5000 },
    );
    expect(reply.json()).toMatchObject({
      err: { status: 400, code: 'COMMON.VALIDATION_FAILED', message: 'Text must be at least 2 characters' },
    });
  });

  it('should refuse a message that is not a request packet with a 400 error, and keep answering', async () => {
    for (const body of ['not json', '"a string"', 'null']) {
      const reply = await client.connection.request(`${namespace}.billing.test.echo`, body, { timeout: 5000 });
      expect(reply.json()).toMatchObject({
        err: { status: 400, code: 'COMMON.VALIDATION_FAILED', message: 'The request could not be read.' },
      });
    }
    await expect(client.rpc.call(echo, { text: 'ok' })).resolves.toMatchObject({ text: 'ok' });
  });

  it('should rebuild a domain error on the calling side', async () => {
    await expect(client.rpc.call(fail, { kind: 'domain' })).rejects.toMatchObject({
      code: 'COMMON.NOT_FOUND',
      message: 'No such thing.',
      status: 404,
    });
  });

  it('should hide the details of an unexpected failure', async () => {
    const error = await client.rpc.call(fail, { kind: 'crash' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'COMMON.INTERNAL', status: 500 });
    expect((error as Error).message).not.toMatch(/postgres|secret/);
  });

  it('should refuse to send a reply that breaks the contract', async () => {
    await expect(client.rpc.call(fail, { kind: 'bad-reply' })).rejects.toMatchObject({ code: 'COMMON.INTERNAL' });
  });

  it('should refuse a request larger than the bus carries with 413, and the service keeps answering', async () => {
    // One megabyte of text in three-byte characters: its JSON is past NATS's max_payload.
    const error = await client.rpc.call(echo, { text: '€'.repeat(350_000) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'COMMON.PAYLOAD_TOO_LARGE', status: 413 });
    await expect(client.rpc.call(echo, { text: 'ok' })).resolves.toMatchObject({ text: 'ok' });
  });

  it('should answer a reply larger than the bus carries with an internal error, not silence', async () => {
    const error = await client.rpc.call(echo, { text: '€€', times: 200_000 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'COMMON.INTERNAL', status: 500 });
    await expect(client.rpc.call(echo, { text: 'ok' })).resolves.toMatchObject({ text: 'ok' });
  });

  it('should say the service is unavailable when nobody answers, and keep namespaces apart', async () => {
    const outsider = await createTestRpcClient(testNatsUrl(), testNamespace('other'), 1000);
    try {
      await expect(outsider.rpc.call(echo, { text: 'hi' })).rejects.toMatchObject({
        code: 'COMMON.SERVICE_UNAVAILABLE',
        status: 503,
      });
    } finally {
      await outsider.close();
    }
  });

  describe('a definition with requiredRole: admin', () => {
    /** Sends the request raw, with exactly these envelope headers (each pair appended as given). */
    const sendRaw = async (envelope: [string, string][], data: unknown = { note: 'hi' }) => {
      const messageHeaders = headers();
      for (const [name, value] of envelope) messageHeaders.append(name, value);
      const reply = await client.connection.request(
        `${namespace}.${adminOnly.subject}`,
        JSON.stringify({ pattern: adminOnly.subject, data, id: '1' }),
        { timeout: 5000, headers: messageHeaders },
      );
      return reply.json<{ response?: unknown; err?: unknown }>();
    };
    const forbidden = { err: { status: 403, code: 'AUTH.FORBIDDEN', message: ADMIN_ONLY_MESSAGE } };

    it('should serve an admin caller, whose id and role the handler reads with currentCaller()', async () => {
      await expect(
        client.rpc.call(adminOnly, { note: 'hi' }, { caller: { userId: 42, role: 'admin' } }),
      ).resolves.toEqual({ note: 'hi', callerId: 42, callerRole: 'admin' });
      await expect(
        sendRaw([
          [RPC_CALLER_ID_HEADER, '7'],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ]),
      ).resolves.toMatchObject({
        response: { note: 'hi', callerId: 7, callerRole: 'admin' },
      });
    });

    it('should refuse a call that names no caller, or a user, with 403 before reading the request', async () => {
      for (const call of [
        client.rpc.call(adminOnly, { note: 'hi' }),
        client.rpc.call(adminOnly, { note: 'hi' }, { caller: { userId: 42, role: 'user' } }),
      ]) {
        await expect(call).rejects.toMatchObject({ status: 403, code: 'AUTH.FORBIDDEN', message: ADMIN_ONLY_MESSAGE });
      }
      // The request is not even read: a broken one from a user is refused for the role, not its shape.
      await expect(
        sendRaw(
          [
            [RPC_CALLER_ID_HEADER, '7'],
            [RPC_CALLER_ROLE_HEADER, 'user'],
          ],
          { note: 42 },
        ),
      ).resolves.toMatchObject(forbidden);
    });

    it.each([
      ['no headers at all', []],
      ['a role without an id', [[RPC_CALLER_ROLE_HEADER, 'admin']]],
      ['an id without a role', [[RPC_CALLER_ID_HEADER, '7']]],
      [
        'an empty id',
        [
          [RPC_CALLER_ID_HEADER, ''],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ],
      ],
      [
        'id 0',
        [
          [RPC_CALLER_ID_HEADER, '0'],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ],
      ],
      [
        'a negative id',
        [
          [RPC_CALLER_ID_HEADER, '-7'],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ],
      ],
      [
        'a fractional id',
        [
          [RPC_CALLER_ID_HEADER, '7.5'],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ],
      ],
      [
        'an id in exponent form',
        [
          [RPC_CALLER_ID_HEADER, '7e3'],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ],
      ],
      [
        'an id with a leading zero',
        [
          [RPC_CALLER_ID_HEADER, '07'],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ],
      ],
      [
        'an id past the largest row id',
        [
          [RPC_CALLER_ID_HEADER, '2147483648'],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ],
      ],
      [
        'an id of many digits',
        [
          [RPC_CALLER_ID_HEADER, '9'.repeat(40)],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ],
      ],
      [
        'a role in capitals',
        [
          [RPC_CALLER_ID_HEADER, '7'],
          [RPC_CALLER_ROLE_HEADER, 'ADMIN'],
        ],
      ],
      [
        'an unknown role',
        [
          [RPC_CALLER_ID_HEADER, '7'],
          [RPC_CALLER_ROLE_HEADER, 'root'],
        ],
      ],
      [
        'two roles in one value',
        [
          [RPC_CALLER_ID_HEADER, '7'],
          [RPC_CALLER_ROLE_HEADER, 'user,admin'],
        ],
      ],
      [
        'the role header twice, user then admin',
        [
          [RPC_CALLER_ID_HEADER, '7'],
          [RPC_CALLER_ROLE_HEADER, 'user'],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ],
      ],
      [
        'the role header again under other letters',
        [
          [RPC_CALLER_ID_HEADER, '7'],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
          [RPC_CALLER_ROLE_HEADER.toUpperCase(), 'user'],
        ],
      ],
      [
        'the id header twice',
        [
          [RPC_CALLER_ID_HEADER, '7'],
          [RPC_CALLER_ID_HEADER, '8'],
          [RPC_CALLER_ROLE_HEADER, 'admin'],
        ],
      ],
      [
        'look-alike header names',
        [
          ['likeness-caller', '7'],
          ['x-likeness-caller-role', 'admin'],
        ],
      ],
    ] as [string, [string, string][]][])('should refuse a raw request with %s', async (_name, envelope) => {
      await expect(sendRaw(envelope)).resolves.toMatchObject(forbidden);
    });

    it('should refuse a caller named in the request body rather than the envelope', async () => {
      await expect(
        sendRaw([], { note: 'hi', caller: { userId: 7, role: 'admin' }, [RPC_CALLER_ROLE_HEADER]: 'admin' }),
      ).resolves.toMatchObject(forbidden);
    });

    it('should not carry the caller over to the next call on the same connection', async () => {
      await client.rpc.call(adminOnly, { note: 'hi' }, { caller: { userId: 42, role: 'admin' } });
      await expect(client.rpc.call(adminOnly, { note: 'hi' })).rejects.toMatchObject({ code: 'AUTH.FORBIDDEN' });
    });
  });

  it('should refuse to start an app where two handlers answer one subject', async () => {
    @Controller()
    class EchoAgain {
      @RpcHandler(echo)
      echo(request: z.output<typeof echo.request>) {
        return { text: request.text };
      }
    }
    @Module({ controllers: [TestController, EchoAgain] })
    class TwiceModule {}
    const twice = await NestFactory.createApplicationContext(TwiceModule, { logger: false });
    try {
      expect(() => discoverRpcHandlers(twice)).toThrow(
        /TestController\.echo and EchoAgain\.echo both answer billing\.test\.echo|EchoAgain\.echo and TestController\.echo both answer billing\.test\.echo/,
      );
    } finally {
      await twice.close();
    }
  });

  it('should answer requests already in flight when it shuts down, then stop taking new ones', async () => {
    const inFlight = client.rpc.call(slow, { ms: 400 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = app.close();
    await expect(inFlight).resolves.toEqual({ waited: 400 });
    await closing;
    const late = await createTestRpcClient(testNatsUrl(), namespace, 1000);
    try {
      await expect(late.rpc.call(echo, { text: 'hi' })).rejects.toMatchObject({ code: 'COMMON.SERVICE_UNAVAILABLE' });
    } finally {
      await late.close();
    }
  });
});
