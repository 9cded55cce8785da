import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleted accounts: the row stays (its id is the account id billing's records keep), with
 * `deleted_at` set and the username, e-mail and password hash replaced by values no one can
 * register or log in with, so the real ones are free again.
 */
export class UserDeletion1764200000000 implements MigrationInterface {
  name = 'UserDeletion1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth"."users" ADD "deleted_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth"."users" DROP COLUMN "deleted_at"`);
  }
}
