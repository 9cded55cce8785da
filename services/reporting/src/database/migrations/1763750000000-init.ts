import { createMessagingTables, dropMessagingTables } from '@likeness/nest-kit';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1763750000000 implements MigrationInterface {
  name = 'Init1763750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner, 'reporting');
    await queryRunner.query(
      `CREATE TABLE "reporting"."users" ("id" integer NOT NULL, "username" character varying(20) NOT NULL, "email" character varying(254) NOT NULL, "role" character varying(16) NOT NULL, "registered_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "users_pkey" PRIMARY KEY ("id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "reporting"."users"`);
    await dropMessagingTables(queryRunner, 'reporting');
  }
}
