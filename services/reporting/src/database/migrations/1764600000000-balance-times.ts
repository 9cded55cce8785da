import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A balance row keeps the newest balance by billing's time of the change (its CreditsChanged's
 * occurredAt, or the account's balance_changed_at in a rebuild), whatever order they come in.
 * Rows that exist already take the earliest time: the next fact about them replaces them.
 */
export class BalanceTimes1764600000000 implements MigrationInterface {
  name = 'BalanceTimes1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "reporting"."credit_balances" ADD "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT 'epoch'`,
    );
    await queryRunner.query(`ALTER TABLE "reporting"."credit_balances" ALTER COLUMN "changed_at" DROP DEFAULT`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "reporting"."credit_balances" DROP COLUMN "changed_at"`);
  }
}
