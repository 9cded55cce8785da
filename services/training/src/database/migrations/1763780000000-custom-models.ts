import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Custom models, with the one-training-at-a-time rule in an index; webhook ids already handled. */
export class CustomModels1763780000000 implements MigrationInterface {
  name = 'CustomModels1763780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "training"."custom_models" ("id" integer GENERATED ALWAYS AS IDENTITY NOT NULL, "user_id" integer NOT NULL, "model_name" character varying(30) NOT NULL, "trigger_word" character varying(20) NOT NULL, "training_type" character varying(16) NOT NULL DEFAULT 'flux-lora', "status" character varying(16) NOT NULL DEFAULT 'pending', "provider" character varying(16) NOT NULL, "training_job_id" text, "provider_model" text, "version" text, "hold_reference" character varying(200) NOT NULL, "reference_image_ids" integer array NOT NULL, "image_keys" text array NOT NULL DEFAULT '{}', "failure_reason" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "custom_models_provider_check" CHECK ("provider" IN ('replicate', 'local')), CONSTRAINT "custom_models_status_check" CHECK ("status" IN ('pending', 'training', 'completed', 'failed')), CONSTRAINT "custom_models_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "custom_models_user_created_idx" ON "training"."custom_models" ("user_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "custom_models_one_active_per_user_key" ON "training"."custom_models" ("user_id") WHERE "status" IN ('pending', 'training')`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "custom_models_hold_reference_key" ON "training"."custom_models" ("hold_reference")`,
    );
    await queryRunner.query(
      `CREATE INDEX "custom_models_training_job_id_idx" ON "training"."custom_models" ("training_job_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "training"."webhook_deliveries" ("webhook_id" character varying(256) NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("webhook_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_received_idx" ON "training"."webhook_deliveries" ("received_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "training"."webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "training"."custom_models"`);
  }
}
