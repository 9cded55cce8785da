import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's holds found by their user id (the credit history lists them). */
export class HoldsByUser1764300000000 implements MigrationInterface {
  name = 'HoldsByUser1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "holds_user_idx" ON "billing"."holds" ("user_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "billing"."holds_user_idx"`);
  }
}
