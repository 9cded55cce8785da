import { defineRpc } from '@likeness/contracts';
import {
  DomainError,
  NamespacedNatsServer,
  RpcHandler,
  currentCorrelationId,
  runWithCorrelation,
} from '@likeness/nest-kit';
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

@Controller()
class TestController {
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

describe(NamespacedNatsServer.name, () => {
  const namespace = testNamespace('rpc');
  let app: INestMicroservice;
  let client: Awaited<ReturnType<typeof createTestRpcClient>>;

  beforeAll(async () => {
    app = await NestFactory.createMicroservice(TestModule, {
      strategy: new NamespacedNatsServer({
        url: testNatsUrl(),
        queue: 'billing',
        namespace,
        name: 'rpc-test',
        gracePeriodMs: 1000,
      }),
      logger: false,
    });
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
