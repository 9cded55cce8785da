import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cents refunded or disputed so far on a payment (what the provider said last, at most the
 * amount): reporting's revenue and its rebuild read it. Payments reversed before this column
 * existed count as fully reversed when refunded or disputed.
 */
export class PaymentRefundedCents1764450000000 implements MigrationInterface {
  name = 'PaymentRefundedCents1764450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "billing"."payments" ADD "refunded_cents" integer NOT NULL DEFAULT 0, ADD CONSTRAINT "payments_refunded_cents_check" CHECK ("refunded_cents" >= 0 AND "refunded_cents" <= "amount_cents")`,
    );
    await queryRunner.query(
      `UPDATE "billing"."payments" SET "refunded_cents" = "amount_cents" WHERE "status" IN ('refunded', 'disputed')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "billing"."payments" DROP CONSTRAINT "payments_refunded_cents_check", DROP COLUMN "refunded_cents"`,
    );
  }
}
