import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Deleted users whose media was erased, and whether their objects are purged yet. */
export class ErasedUsers1764100000000 implements MigrationInterface {
  name = 'ErasedUsers1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "media"."erased_users" ("user_id" integer NOT NULL, "erased_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "objects_purged_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "erased_users_pkey" PRIMARY KEY ("user_id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "media"."erased_users"`);
  }
}
