import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Logger, metricsRegistry } from '@likeness/nest-kit';

/**
 * The gateway's internal port: Prometheus scrapes `/metrics` here, never on the public port,
 * which only serves the API and the SPA.
 */
export async function startMetricsServer(host: string, port: number, logger: Logger): Promise<Server> {
  const server = createServer((request, response) => {
    response.on('error', (error) => logger.warn({ err: error }, 'metrics answer failed'));
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    metricsRegistry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      (error: unknown) => {
        logger.error({ err: error }, 'metrics collection failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable');
      },
    );
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => logger.error({ err: error }, 'metrics server failed'));
  return server;
}

export function metricsUrl(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
