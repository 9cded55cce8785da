import { createMessagingTables, dropMessagingTables } from '@likeness/nest-kit';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1763750000000 implements MigrationInterface {
  name = 'Init1763750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner, 'auth');
    await queryRunner.query(
      `CREATE TABLE "auth"."users" ("id" SERIAL NOT NULL, "username" character varying(20) NOT NULL, "email" character varying(254) NOT NULL, "password_hash" text NOT NULL, "role" character varying(16) NOT NULL DEFAULT 'user', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "users_role_check" CHECK ("role" IN ('user', 'admin')), CONSTRAINT "users_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_key" ON "auth"."users" ("email")`);
    // Usernames are unique whatever their case; TypeORM cannot describe this index, so it is kept out of sync checks.
    await queryRunner.query(`CREATE UNIQUE INDEX "users_username_lower_key" ON "auth"."users" (lower("username"))`);
    await queryRunner.query(
      `CREATE TABLE "auth"."refresh_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" integer NOT NULL, "token_hash" character(64) NOT NULL, "family_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "rotated_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "refresh_tokens_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "refresh_tokens_hash_key" ON "auth"."refresh_tokens" ("token_hash")`);
    await queryRunner.query(`CREATE INDEX "refresh_tokens_family_idx" ON "auth"."refresh_tokens" ("family_id")`);
    await queryRunner.query(`CREATE INDEX "refresh_tokens_user_idx" ON "auth"."refresh_tokens" ("user_id")`);
    await queryRunner.query(
      `ALTER TABLE "auth"."refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_fkey" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "auth"."refresh_tokens"`);
    await queryRunner.query(`DROP TABLE "auth"."users"`);
    await dropMessagingTables(queryRunner, 'auth');
  }
}
