import { type ServiceName, pingRpc } from '@likeness/contracts';
import { Controller, Inject, type Type } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type ServiceConfig } from '../config/config.js';
import { databaseStatus } from '../health/health.controller.js';
import { RpcHandler } from '../messaging/rpc-handler.decorator.js';

/** Answers `<service>.system.ping`, which the gateway's /readyz asks of every service. */
export function createSystemController(service: ServiceName): Type {
  @Controller()
  class SystemController {
    constructor(
      @InjectDataSource() private readonly dataSource: DataSource,
      @Inject(APP_CONFIG) private readonly config: ServiceConfig,
    ) {}

    @RpcHandler(pingRpc(service))
    async ping() {
      return {
        service,
        version: this.config.APP_VERSION,
        uptimeSeconds: Math.round(process.uptime()),
        database: await databaseStatus(this.dataSource),
      };
    }
  }
  return SystemController;
}
