/**
 * OpenTelemetry for an app, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set. This module imports
 * nothing of the app: `startTracing` must run before the app's modules load (main.ts imports the
 * app afterwards), so the HTTP, Fastify and pg instrumentations see `http`, `fastify` and `pg`
 * being required. Off, nothing is loaded and the API's no-op tracer is all the kit calls.
 */
interface TracingHandle {
  shutdown(): Promise<void>;
}

let running: TracingHandle | undefined;

/** Starts tracing for `service` (OTEL_SERVICE_NAME overrides it); a no-op without an endpoint. */
export async function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (running || !env['OTEL_EXPORTER_OTLP_ENDPOINT']) return running !== undefined;
  // The SDK's parts one by one, not @opentelemetry/sdk-node: that loads every exporter and the
  // metrics and logs SDKs too, and tripled the apps' start-up time.
  const [
    api,
    { TracerProvider, BatchSpanProcessor },
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
  ] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
  ]);
  const [{ resourceFromAttributes }, { OTLPTraceExporter }, { registerInstrumentations }] = await Promise.all([
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation'),
  ]);
  const [{ HttpInstrumentation }, { FastifyInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-fastify'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env['OTEL_SERVICE_NAME'] || service }),
    // Exports in batches on a timer, never on the request's path.
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        ...(Number(env['OTEL_BSP_SCHEDULE_DELAY']) > 0
          ? { scheduledDelayMillis: Number(env['OTEL_BSP_SCHEDULE_DELAY']) }
          : {}),
      }),
    ],
  });
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes would be most of the traces and tell nothing.
        ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz|health|metrics)(\/|$|\?)/.test(request.url ?? ''),
      }),
      new FastifyInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  running = provider;
  return true;
}

/** Sends the spans still buffered; call it last on shutdown. */
export async function stopTracing(): Promise<void> {
  const handle = running;
  running = undefined;
  await handle?.shutdown().catch(() => undefined);
}
