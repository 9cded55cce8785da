import type { NatsConnection } from '@nats-io/transport-node';
import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { NATS_CONNECTION, NATS_SETTINGS, type NatsSettings, connectNats } from './nats.js';
import { RPC_TIMEOUT_MS, RpcClient } from './rpc-client.js';

/** Watches the shared connection for health checks and drains it last on shutdown. */
@Injectable()
export class NatsLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Nats');
  connected = true;

  constructor(@Inject(NATS_CONNECTION) private readonly nats: NatsConnection) {
    void this.watch();
  }

  private async watch(): Promise<void> {
    for await (const status of this.nats.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        this.logger.warn('Disconnected from NATS; reconnecting');
      } else if (status.type === 'reconnect') {
        this.connected = true;
        this.logger.log('Reconnected to NATS');
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.nats.isClosed()) await this.nats.drain().catch(() => this.nats.close());
  }
}

/** The shared NATS connection and the typed RPC client. */
@Global()
@Module({})
export class NatsModule {
  static forRoot(settings: NatsSettings, rpcTimeoutMs: number): DynamicModule {
    return {
      module: NatsModule,
      providers: [
        { provide: NATS_SETTINGS, useValue: settings },
        { provide: RPC_TIMEOUT_MS, useValue: rpcTimeoutMs },
        { provide: NATS_CONNECTION, useFactory: () => connectNats(settings) },
        NatsLifecycle,
        RpcClient,
      ],
      exports: [NATS_SETTINGS, NATS_CONNECTION, NatsLifecycle, RpcClient],
    };
  }
}
