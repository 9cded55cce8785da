import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox and inbox tables every service keeps in its own schema; called from the
 * service's first migration so that they match the entities exactly.
 */
export async function createMessagingTables(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(
    `CREATE TABLE "${schema}"."outbox" ("id" uuid NOT NULL, "subject" text NOT NULL, "envelope" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "published_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "outbox_pkey" PRIMARY KEY ("id"))`,
  );
  await queryRunner.query(
    `CREATE INDEX "outbox_unpublished_idx" ON "${schema}"."outbox" ("created_at") WHERE "published_at" IS NULL`,
  );
  await queryRunner.query(
    `CREATE TABLE "${schema}"."inbox" ("event_id" uuid NOT NULL, "consumer" text NOT NULL, "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "inbox_pkey" PRIMARY KEY ("event_id", "consumer"))`,
  );
}

/** Events parked after every attempt failed (added after the first migrations: each service adds it in its own). */
export async function createDeadLetterTable(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(
    `CREATE TABLE "${schema}"."dead_letters" ("event_id" uuid NOT NULL, "consumer" text NOT NULL, "subject" text NOT NULL, "envelope" jsonb NOT NULL, "error" text NOT NULL, "deliveries" integer NOT NULL, "parked_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "dead_letters_pkey" PRIMARY KEY ("event_id", "consumer"))`,
  );
}

/** The migration that adds the dead-letter table to a service's schema (each service lists it among its own). */
export function deadLetterMigration(schema: string): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = 'DeadLetters1763900000000';

    async up(queryRunner: QueryRunner): Promise<void> {
      await createDeadLetterTable(queryRunner, schema);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`DROP TABLE "${schema}"."dead_letters"`);
    }
  };
}

export async function dropMessagingTables(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(`DROP TABLE "${schema}"."inbox"`);
  await queryRunner.query(`DROP TABLE "${schema}"."outbox"`);
}
