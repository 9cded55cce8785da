import { Controller, Get, Header, HttpCode, Inject, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { NatsLifecycle } from '../messaging/nats.module.js';
import { metricsRegistry } from './metrics.js';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: { database: 'up' | 'down'; nats: 'up' | 'down' };
}

/** The small HTTP side of a service: readiness, liveness and Prometheus metrics. */
@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(NatsLifecycle) private readonly nats: NatsLifecycle,
  ) {}

  @Get('health')
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const database = await databaseStatus(this.dataSource);
    const nats = this.nats.connected ? 'up' : 'down';
    const ok = database === 'up' && nats === 'up';
    reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks: { database, nats } };
  }

  @Get('health/live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('metrics')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}

export async function databaseStatus(dataSource: DataSource): Promise<'up' | 'down'> {
  try {
    await Promise.race([
      dataSource.query('SELECT 1'),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000).unref()),
    ]);
    return 'up';
  } catch {
    return 'down';
  }
}
