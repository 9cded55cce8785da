import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Generation jobs: one row per run, its hold reference unique, pending ones findable by age. */
export class GenerationJobs1763800000000 implements MigrationInterface {
  name = 'GenerationJobs1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "generation"."generation_jobs" ("id" uuid NOT NULL, "user_id" integer NOT NULL, "custom_model_id" integer NOT NULL, "uploaded_image_id" integer, "prompt_text" text NOT NULL, "num_outputs" smallint NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "model_type" character varying(32) NOT NULL DEFAULT 'flux-lora', "provider" character varying(16) NOT NULL, "model_version" text NOT NULL, "hold_reference" character varying(200) NOT NULL, "prediction_id" text, "results" jsonb, "settings" jsonb NOT NULL DEFAULT '{}', "attempts" integer NOT NULL DEFAULT '0', "failure_reason" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "generation_jobs_provider_check" CHECK ("provider" IN ('replicate', 'local')), CONSTRAINT "generation_jobs_num_outputs_check" CHECK ("num_outputs" BETWEEN 1 AND 4), CONSTRAINT "generation_jobs_status_check" CHECK ("status" IN ('pending', 'completed', 'failed')), CONSTRAINT "generation_jobs_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "generation_jobs_hold_reference_key" ON "generation"."generation_jobs" ("hold_reference")`,
    );
    await queryRunner.query(
      `CREATE INDEX "generation_jobs_pending_created_idx" ON "generation"."generation_jobs" ("created_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "generation_jobs_user_created_idx" ON "generation"."generation_jobs" ("user_id", "created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "generation"."generation_jobs"`);
  }
}
