import type { EventDefinition, EventPayload } from '@likeness/contracts';
import {
  type EventContext,
  EventHandler,
  ServiceKitModule,
  createMessagingTables,
  createServiceApp,
  defineServiceDatabase,
  loadConfig,
  runMigrations,
  serviceConfigSchema,
} from '@likeness/nest-kit';
import { type DynamicModule, Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Column, DataSource, Entity, type MigrationInterface, PrimaryColumn, type QueryRunner } from 'typeorm';

const SCHEMA = 'event_probe';

@Entity({ name: 'received' })
class ReceivedEvent {
  @PrimaryColumn({ name: 'event_id', type: 'uuid', primaryKeyConstraintName: 'received_pkey' })
  eventId!: string;

  @Column({ type: 'jsonb' })
  payload!: unknown;
}

class EventProbeInit1700000000000 implements MigrationInterface {
  name = 'EventProbeInit1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner, SCHEMA);
    await queryRunner.query(
      `CREATE TABLE "${SCHEMA}"."received" ("event_id" uuid NOT NULL, "payload" jsonb NOT NULL, CONSTRAINT "received_pkey" PRIMARY KEY ("event_id"))`,
    );
  }
  async down(): Promise<void> {
    // A probe's schema is dropped with its test database.
  }
}

const database = defineServiceDatabase({
  schema: SCHEMA,
  entities: [ReceivedEvent],
  migrations: [EventProbeInit1700000000000],
});

export interface EventProbe<E extends EventDefinition> {
  /** Every event the probe handled, in the order it handled them. */
  received(): Promise<EventPayload<E>[]>;
  /** Times the handler ran, duplicates included (should equal received().length). */
  handlerRuns(): number;
  close(): Promise<void>;
}

/**
 * A consumer of one event, built from the kit like any service's: a durable JetStream consumer
 * with the inbox. Tests use it to see what a real consumer would see.
 */
export async function startEventProbe<E extends EventDefinition>(
  event: E,
  env: { env: Record<string, string> },
): Promise<EventProbe<E>> {
  let runs = 0;

  @Injectable()
  class ProbeListener {
    @EventHandler(event)
    async record(payload: EventPayload<E>, { envelope, manager }: EventContext): Promise<void> {
      runs += 1;
      await manager.insert(ReceivedEvent, { eventId: envelope.id, payload: payload as never });
    }
  }

  @Injectable()
  class ProbeReader {
    constructor(@InjectDataSource() private readonly dataSource: DataSource) {}
    async all(): Promise<EventPayload<E>[]> {
      const rows = await this.dataSource.query(
        `SELECT payload FROM "${SCHEMA}"."received" ORDER BY (payload->>'userId')::int NULLS LAST, event_id`,
      );
      return rows.map((row: { payload: EventPayload<E> }) => row.payload);
    }
  }

  @Module({})
  class ProbeModule {
    static forRoot(config: ReturnType<typeof loadConfig<typeof serviceConfigSchema>>): DynamicModule {
      return {
        module: ProbeModule,
        imports: [ServiceKitModule.forRoot({ service: 'reporting', config, database: database(config) })],
        providers: [ProbeListener, ProbeReader],
      };
    }
  }

  const config = loadConfig(serviceConfigSchema, env.env);
  await runMigrations(database(config));
  const app = await createServiceApp(
    { service: 'reporting', configSchema: serviceConfigSchema, database, module: (c) => ProbeModule.forRoot(c) },
    config,
  );
  return {
    received: () => app.get(ProbeReader).all(),
    handlerRuns: () => runs,
    close: () => app.close(),
  };
}
