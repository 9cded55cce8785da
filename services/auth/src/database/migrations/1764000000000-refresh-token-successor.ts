import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A rotated refresh token keeps its successor, sealed with a key only the old token's holder can derive. */
export class RefreshTokenSuccessor1764000000000 implements MigrationInterface {
  name = 'RefreshTokenSuccessor1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth"."refresh_tokens" ADD "successor_sealed" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth"."refresh_tokens" DROP COLUMN "successor_sealed"`);
  }
}
