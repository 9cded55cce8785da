import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Deleted users, by id only, so a late UserRegistered does not bring one back. */
export class DeletedUsers1764100000000 implements MigrationInterface {
  name = 'DeletedUsers1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "reporting"."deleted_users" ("user_id" integer NOT NULL, "deleted_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "deleted_users_pkey" PRIMARY KEY ("user_id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "reporting"."deleted_users"`);
  }
}
