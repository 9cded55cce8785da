// A minimal service for the kit's own tests: its schema holds only the outbox and the inbox.
import {
  ServiceKitModule,
  createDeadLetterTable,
  createMessagingTables,
  createServiceApp,
  defineServiceDatabase,
  loadConfig,
  runMigrations,
  serviceConfigSchema,
} from '@likeness/nest-kit';
import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { type TestServiceEnvironment, createTestServiceEnvironment } from '../src/index.js';

class KitAppInit1700000000000 implements MigrationInterface {
  name = 'KitAppInit1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner, 'kit');
    await createDeadLetterTable(queryRunner, 'kit');
  }
  async down(): Promise<void> {}
}

export const kitDatabase = defineServiceDatabase({
  schema: 'kit',
  entities: [],
  migrations: [KitAppInit1700000000000],
});

export type KitConfig = ReturnType<typeof loadConfig<typeof serviceConfigSchema>>;

/** One process of the test service: the kit plus the given providers. */
export async function startKitApp(
  env: TestServiceEnvironment,
  providers: Provider[],
  overrides: Record<string, string> = {},
): Promise<NestFastifyApplication> {
  const config = loadConfig(serviceConfigSchema, { ...env.env, ...overrides });
  @Module({})
  class KitAppModule {
    static forRoot(c: KitConfig): DynamicModule {
      return {
        module: KitAppModule,
        imports: [ServiceKitModule.forRoot({ service: 'reporting', config: c, database: kitDatabase(c) })],
        providers,
      };
    }
  }
  return createServiceApp(
    {
      service: 'reporting',
      configSchema: serviceConfigSchema,
      database: kitDatabase,
      module: (c) => KitAppModule.forRoot(c),
    },
    config,
  );
}

/** A database and namespace with the kit's tables migrated. */
export async function createKitEnvironment(label: string): Promise<TestServiceEnvironment> {
  const env = await createTestServiceEnvironment(label);
  await runMigrations(kitDatabase(loadConfig(serviceConfigSchema, env.env)));
  return env;
}
