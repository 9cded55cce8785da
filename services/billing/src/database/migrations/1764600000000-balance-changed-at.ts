import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an account's balance last changed: the very moment, to the millisecond, of its newest
 * CreditsChanged event, and strictly later than the one before (src/ledger/credit-ledger.ts), so
 * reporting keeps the newest balance whatever order the events reach it in, and its rebuild from
 * the accounts agrees. Accounts that exist already take the time of this migration: later than
 * every event they published so far.
 */
export class BalanceChangedAt1764600000000 implements MigrationInterface {
  name = 'BalanceChangedAt1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "billing"."accounts" ADD "balance_changed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT date_trunc('milliseconds', now())`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "billing"."accounts" DROP COLUMN "balance_changed_at"`);
  }
}
