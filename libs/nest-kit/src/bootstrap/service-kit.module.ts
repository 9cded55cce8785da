import type { ServiceName } from '@likeness/contracts';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { APP_CONFIG, type ServiceConfig } from '../config/config.js';
import { EventConsumers, SERVICE_NAME } from '../events/event-consumers.js';
import { MessagingGauges } from '../events/messaging-gauges.js';
import { OutboxService } from '../events/outbox.service.js';
import { OUTBOX_CHANNEL, OutboxRelay } from '../events/outbox-relay.js';
import { HealthController } from '../health/health.controller.js';
import { JobWorkers } from '../jobs/job-workers.js';
import { natsSettingsOf } from '../messaging/nats.js';
import { NatsModule } from '../messaging/nats.module.js';
import { PeriodicTasks } from '../periodic/periodic-tasks.js';
import { createSystemController } from './system.controller.js';

export interface ServiceKitOptions {
  service: ServiceName;
  config: ServiceConfig;
  database: DataSourceOptions & { schema?: string };
}

/**
 * Everything a service shares: config, NATS and the RPC client, its database, the outbox and
 * its relay, durable event consumers, job workers, periodic tasks, health, metrics and ping.
 */
@Global()
@Module({})
export class ServiceKitModule {
  static forRoot({ service, config, database }: ServiceKitOptions): DynamicModule {
    return {
      module: ServiceKitModule,
      imports: [
        NatsModule.forRoot(natsSettingsOf(config, service), config.RPC_TIMEOUT_MS),
        TypeOrmModule.forRoot(database),
        DiscoveryModule,
      ],
      controllers: [HealthController, createSystemController(service)],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: SERVICE_NAME, useValue: service },
        { provide: OUTBOX_CHANNEL, useValue: `${database.schema ?? service}_outbox` },
        OutboxService,
        OutboxRelay,
        EventConsumers,
        JobWorkers,
        PeriodicTasks,
        MessagingGauges,
      ],
      exports: [APP_CONFIG, SERVICE_NAME, OutboxService, OutboxRelay],
    };
  }
}
