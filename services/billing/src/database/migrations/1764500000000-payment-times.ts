import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a payment was granted (succeeded_at) and last refunded or disputed (refunded_at): the same
 * moments, to the millisecond, as its PaymentSucceeded and PaymentRefunded events, so reporting's
 * rebuild from the rows and its read model from the events agree. Payments granted before these
 * columns existed take the time of their purchase in the ledger (the grant's transaction wrote
 * it), or their last update when the ledger has none; refunded or disputed ones take their last
 * update as the refund time.
 */
export class PaymentTimes1764500000000 implements MigrationInterface {
  name = 'PaymentTimes1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "billing"."payments" ADD "succeeded_at" TIMESTAMP WITH TIME ZONE, ADD "refunded_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `UPDATE "billing"."payments" p SET "succeeded_at" = date_trunc('milliseconds', coalesce(
         (SELECT min(e."created_at") FROM "billing"."ledger_entries" e
          WHERE e."idempotency_key" = 'payment:' || p."provider_payment_id"),
         p."updated_at"))
       WHERE p."status" IN ('succeeded', 'refunded', 'disputed')`,
    );
    await queryRunner.query(
      `UPDATE "billing"."payments" SET "refunded_at" = date_trunc('milliseconds', "updated_at")
       WHERE "refunded_cents" > 0 OR "status" IN ('refunded', 'disputed')`,
    );
    await queryRunner.query(
      `ALTER TABLE "billing"."payments" ADD CONSTRAINT "payments_succeeded_at_check" CHECK ("status" IN ('pending', 'failed') OR "succeeded_at" IS NOT NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "billing"."payments" DROP CONSTRAINT "payments_succeeded_at_check", DROP COLUMN "refunded_at", DROP COLUMN "succeeded_at"`,
    );
  }
}
