import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An avatar its owner starred, and the index the Favourites filter pages on. */
export class AvatarFavourites1764200000000 implements MigrationInterface {
  name = 'AvatarFavourites1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "media"."avatars" ADD "favourite" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `CREATE INDEX "avatars_user_favourite_created_idx" ON "media"."avatars" ("user_id", "created_at") WHERE favourite`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "media"."avatars_user_favourite_created_idx"`);
    await queryRunner.query(`ALTER TABLE "media"."avatars" DROP COLUMN "favourite"`);
  }
}
