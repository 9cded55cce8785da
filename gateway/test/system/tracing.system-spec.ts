import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { GenerationJob } from '@likeness/contracts';
import { waitFor } from '@likeness/testing';
import { type Session, apiClient } from './api-client.js';
import { type RunningStack, startTestStack } from './stack-harness.js';

/** One span as the apps export it (OTLP/JSON), with the app that made it. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: { spans?: Omit<ExportedSpan, 'service'>[] }[];
  }[];
}

/** A stand-in for an OpenTelemetry collector: OTLP/HTTP JSON in, spans kept in memory. */
function startCollector(spans: ExportedSpan[]): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('error', () => response.destroy());
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as OtlpExport;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service =
          resourceSpans.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value
            .stringValue ?? '?';
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push({ ...span, service });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('tracing a generation from the click to the stored avatar', () => {
  const spans: ExportedSpan[] = [];
  let collector: Server;
  let stack: RunningStack;
  let api: ReturnType<typeof apiClient>;
  let maya: Session;

  beforeAll(async () => {
    collector = await startCollector(spans);
    stack = await startTestStack({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      LOCAL_TRAINING_MS: '300',
      LOCAL_GENERATION_MS: '300',
    });
    api = apiClient(stack.url, '198.18.7');
    maya = await api.register('maya_traced');
    await api.buyCredits(maya, 'starter');
  });

  afterAll(async () => {
    await stack?.shutdown();
    await new Promise((resolve) => collector?.close(resolve));
  });

  it('should show one trace across the gateway, generation, its worker and the services it calls, and keep the correlation id in the worker log', async () => {
    const selfies = await api.uploadSelfies(maya, 12);
    const model = await api.trainModel(maya, { modelName: 'Maya', triggerWord: 'maya_face' }, selfies);
    const correlationId = randomUUID();
    const started = await api.call('/api/generate-avatar', {
      method: 'POST',
      session: maya,
      headers: { 'x-correlation-id': correlationId },
      body: { promptText: 'maya_face in a sunflower field', customModelId: model.id, numOutputs: 1 },
    });
    expect(started.status).toBe(201);
    const { jobId } = started.json as { jobId: string };
    await waitFor(
      async () => {
        const job = (await api.call(`/api/generation-jobs/${jobId}`, { session: maya })).json as GenerationJob;
        return job.status === 'completed';
      },
      { timeoutMs: 60_000, what: 'the generation to complete' },
    );

    // The gateway's call to generation starts the trace every later step continues.
    const request = await waitFor(
      async () => spans.find((span) => span.service === 'gateway' && span.name.startsWith('rpc generation.')),
      { what: "the gateway's call to generation" },
    );
    const trace = () => spans.filter((span) => span.traceId === request.traceId);
    // Spans arrive in batches from each app; wait for the last step's (billing charging the hold).
    await waitFor(
      async () => {
        const names = new Set(trace().map((span) => span.service));
        return (
          ['gateway', 'generation', 'generation-worker', 'billing'].every((name) => names.has(name)) &&
          trace().some((span) => span.service === 'generation-worker' && span.name.startsWith('job ')) &&
          trace().some((span) => span.service === 'billing' && span.name === 'event generation.GenerationCompleted')
        );
      },
      { timeoutMs: 20_000, what: 'spans of every step the generation went through' },
    );
    // Every span but the first hangs off another span of the same trace.
    const ids = new Set(trace().map((span) => span.spanId));
    const roots = trace().filter((span) => !span.parentSpanId || !ids.has(span.parentSpanId));
    expect(roots).toHaveLength(1);

    expect(stack.logOf('generation-worker-1')).toContain(correlationId);
  });
});
