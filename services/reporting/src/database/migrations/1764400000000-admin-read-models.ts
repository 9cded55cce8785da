import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin read models: balances, payments, trainings and generation jobs beside the users,
 * each keyed by its source id; the counters the summary and the timeseries read (`totals`, one
 * row, and `daily_stats`, one row per UTC day), kept by every apply in its transaction. Lists are
 * keyset-paged on (created_at, id) in both directions; username and e-mail search uses trigrams.
 */
export class AdminReadModels1764400000000 implements MigrationInterface {
  name = 'AdminReadModels1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
    await queryRunner.query(`CREATE INDEX "users_registered_idx" ON "reporting"."users" ("registered_at", "id")`);
    await queryRunner.query(
      `CREATE INDEX "users_username_trgm_idx" ON "reporting"."users" USING gin ("username" public.gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX "users_email_trgm_idx" ON "reporting"."users" USING gin ("email" public.gin_trgm_ops)`,
    );

    await queryRunner.query(
      `CREATE TABLE "reporting"."credit_balances" ("user_id" integer NOT NULL, "balance" integer NOT NULL, "available" integer NOT NULL, CONSTRAINT "credit_balances_pkey" PRIMARY KEY ("user_id"))`,
    );

    await queryRunner.query(
      `CREATE TABLE "reporting"."payments" ("id" character varying(64) NOT NULL, "user_id" integer NOT NULL, "package_id" character varying(32) NOT NULL, "amount_cents" integer NOT NULL, "credits" integer NOT NULL, "status" character varying(16) NOT NULL, "refunded_cents" integer NOT NULL DEFAULT 0, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "payments_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "payments_created_idx" ON "reporting"."payments" ("created_at", "id")`);
    await queryRunner.query(
      `CREATE INDEX "payments_user_created_idx" ON "reporting"."payments" ("user_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "payments_status_created_idx" ON "reporting"."payments" ("status", "created_at", "id")`,
    );

    await queryRunner.query(
      `CREATE TABLE "reporting"."trainings" ("model_id" integer NOT NULL, "user_id" integer NOT NULL, "model_name" character varying(64), "status" character varying(16) NOT NULL, "failure_reason" text, "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "trainings_pkey" PRIMARY KEY ("model_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "trainings_user_idx" ON "reporting"."trainings" ("user_id")`);

    // created_at is null until the request (or a snapshot) is heard of: such a row is left out of the lists.
    await queryRunner.query(
      `CREATE TABLE "reporting"."generation_jobs" ("id" uuid NOT NULL, "user_id" integer NOT NULL, "prompt_text" text, "num_outputs" smallint, "status" character varying(16) NOT NULL, "failure_reason" text, "created_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "generation_jobs_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "generation_jobs_created_idx" ON "reporting"."generation_jobs" ("created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "generation_jobs_user_created_idx" ON "reporting"."generation_jobs" ("user_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "generation_jobs_status_created_idx" ON "reporting"."generation_jobs" ("status", "created_at", "id")`,
    );

    await queryRunner.query(
      `CREATE TABLE "reporting"."totals" ("id" smallint NOT NULL DEFAULT 1, "users" integer NOT NULL DEFAULT 0, "payments" integer NOT NULL DEFAULT 0, "revenue_cents" bigint NOT NULL DEFAULT 0, "generations_pending" integer NOT NULL DEFAULT 0, "generations_completed" integer NOT NULL DEFAULT 0, "generations_failed" integer NOT NULL DEFAULT 0, "trainings_running" integer NOT NULL DEFAULT 0, "trainings_completed" integer NOT NULL DEFAULT 0, "trainings_failed" integer NOT NULL DEFAULT 0, "credits_outstanding" bigint NOT NULL DEFAULT 0, "last_event_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "totals_pkey" PRIMARY KEY ("id"), CONSTRAINT "totals_one_row_check" CHECK ("id" = 1))`,
    );
    await queryRunner.query(`INSERT INTO "reporting"."totals" ("id") VALUES (1)`);
    await queryRunner.query(
      `CREATE TABLE "reporting"."daily_stats" ("day" date NOT NULL, "signups" integer NOT NULL DEFAULT 0, "revenue_cents" bigint NOT NULL DEFAULT 0, "generations" integer NOT NULL DEFAULT 0, "failed_jobs" integer NOT NULL DEFAULT 0, CONSTRAINT "daily_stats_pkey" PRIMARY KEY ("day"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['daily_stats', 'totals', 'generation_jobs', 'trainings', 'payments', 'credit_balances']) {
      await queryRunner.query(`DROP TABLE "reporting"."${table}"`);
    }
    for (const index of ['users_email_trgm_idx', 'users_username_trgm_idx', 'users_registered_idx']) {
      await queryRunner.query(`DROP INDEX "reporting"."${index}"`);
    }
  }
}
