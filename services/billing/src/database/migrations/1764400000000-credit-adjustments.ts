import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Administrators' credit adjustments, each once per request id, with who made it and why. */
export class CreditAdjustments1764400000000 implements MigrationInterface {
  name = 'CreditAdjustments1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "billing"."credit_adjustments" ("request_id" uuid NOT NULL, "user_id" integer NOT NULL, "delta" integer NOT NULL, "reason" character varying(200) NOT NULL, "admin_id" integer NOT NULL, "balance" integer NOT NULL, "available" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "credit_adjustments_delta_check" CHECK ("delta" <> 0), CONSTRAINT "credit_adjustments_pkey" PRIMARY KEY ("request_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "credit_adjustments_user_idx" ON "billing"."credit_adjustments" ("user_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "billing"."credit_adjustments_user_idx"`);
    await queryRunner.query(`DROP TABLE "billing"."credit_adjustments"`);
  }
}
