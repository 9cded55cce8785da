import { Controller, Get, Header, HttpCode, Inject, type OnApplicationBootstrap, Res } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { discoverMethods } from '../bootstrap/discover-methods.js';
import { NatsLifecycle } from '../messaging/nats.module.js';
import { metricsRegistry } from './metrics.js';
import {
  READINESS_CHECK_METADATA,
  READINESS_CHECK_TIMEOUT_MS,
  type ReadinessCheckMetadata,
} from './readiness-check.decorator.js';

export type CheckStatus = 'up' | 'down';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  /** The database and NATS, then each `@ReadinessCheck` of the service by its name. */
  checks: { database: CheckStatus; nats: CheckStatus } & Record<string, CheckStatus>;
}

interface NamedCheck {
  name: string;
  run: () => Promise<CheckStatus>;
}

/** The small HTTP side of a service: readiness, liveness and Prometheus metrics. */
@Controller()
export class HealthController implements OnApplicationBootstrap {
  private checks: NamedCheck[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(NatsLifecycle) private readonly nats: NatsLifecycle,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    this.checks = discoverMethods<ReadinessCheckMetadata>(
      this.discovery,
      this.scanner,
      this.reflector,
      READINESS_CHECK_METADATA,
    ).map(({ metadata, call }) => ({
      name: metadata.name,
      run: () => checkStatus(() => call() as Promise<unknown>, metadata.timeoutMs),
    }));
  }

  @Get('health')
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const [database, ...others] = await Promise.all([
      databaseStatus(this.dataSource),
      ...this.checks.map((check) => check.run()),
    ]);
    const checks: HealthReport['checks'] = {
      database: database ?? 'down',
      nats: this.nats.connected ? 'up' : 'down',
      ...Object.fromEntries(this.checks.map((check, index) => [check.name, others[index] ?? 'down'])),
    };
    const ok = Object.values(checks).every((status) => status === 'up');
    reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks };
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

/** `up` when `check` resolves within `timeoutMs`, `down` when it throws or is late. */
export async function checkStatus(check: () => Promise<unknown>, timeoutMs: number): Promise<CheckStatus> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs).unref();
      }),
    ]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

export function databaseStatus(dataSource: DataSource): Promise<CheckStatus> {
  return checkStatus(() => dataSource.query('SELECT 1'), READINESS_CHECK_TIMEOUT_MS);
}
