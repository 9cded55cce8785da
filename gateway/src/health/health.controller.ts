import { SERVICE_NAMES, type ServiceName, pingRpc } from '@likeness/contracts';
import { APP_CONFIG, RpcClient } from '@likeness/nest-kit';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { GatewayConfig } from '../gateway.config.js';

type ServiceStatus = 'up' | 'down';

@Controller()
export class HealthController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(APP_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** The process is up. */
  @Get('healthz')
  live() {
    return { status: 'ok' };
  }

  /** Every service answers over NATS (and reports its database up). */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const results = await Promise.all(SERVICE_NAMES.map((service) => this.ping(service)));
    const services = Object.fromEntries(results) as Record<ServiceName, ServiceStatus>;
    const ready = results.every(([, status]) => status === 'up');
    reply.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'unavailable', services };
  }

  private async ping(service: ServiceName): Promise<[ServiceName, ServiceStatus]> {
    try {
      const answer = await this.rpc.call(pingRpc(service), {}, { timeoutMs: this.config.READINESS_TIMEOUT_MS });
      return [service, answer.database];
    } catch {
      return [service, 'down'];
    }
  }
}
