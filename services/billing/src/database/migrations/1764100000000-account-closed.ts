import type { MigrationInterface, QueryRunner } from 'typeorm';

/** When the account's owner deleted it: no hold or welcome credit is made on it from then on. */
export class AccountClosed1764100000000 implements MigrationInterface {
  name = 'AccountClosed1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "billing"."accounts" ADD "closed_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "billing"."accounts" DROP COLUMN "closed_at"`);
  }
}
