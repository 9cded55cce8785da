import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Password reset tokens, stored hashed, single use, expiring. */
export class PasswordResetTokens1764300000000 implements MigrationInterface {
  name = 'PasswordResetTokens1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "auth"."password_reset_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" integer NOT NULL, "token_hash" character(64) NOT NULL, "request_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "password_reset_tokens_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "password_reset_tokens_hash_key" ON "auth"."password_reset_tokens" ("token_hash")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "password_reset_tokens_request_key" ON "auth"."password_reset_tokens" ("request_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "password_reset_tokens_user_idx" ON "auth"."password_reset_tokens" ("user_id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "auth"."password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "auth"."password_reset_tokens"`);
  }
}
