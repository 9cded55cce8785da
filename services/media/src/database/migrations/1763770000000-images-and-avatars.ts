import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Selfies, the training locks on them, and avatars. */
export class ImagesAndAvatars1763770000000 implements MigrationInterface {
  name = 'ImagesAndAvatars1763770000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "media"."uploaded_images" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "storage_key" text NOT NULL, "thumbnail_key" text NOT NULL, "original_filename" text NOT NULL, "content_type" character varying(64) NOT NULL, "byte_size" integer NOT NULL, "width" integer NOT NULL, "height" integer NOT NULL, "is_reference_image" boolean NOT NULL DEFAULT false, "custom_model_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "uploaded_images_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uploaded_images_storage_key_key" ON "media"."uploaded_images" ("storage_key")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uploaded_images_thumbnail_key_key" ON "media"."uploaded_images" ("thumbnail_key")`,
    );
    await queryRunner.query(
      `CREATE INDEX "uploaded_images_user_created_idx" ON "media"."uploaded_images" ("user_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "media"."training_locks" ("uploaded_image_id" integer NOT NULL, "model_id" integer NOT NULL, "user_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "training_locks_pkey" PRIMARY KEY ("uploaded_image_id", "model_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "training_locks_model_idx" ON "media"."training_locks" ("model_id")`);
    await queryRunner.query(
      `ALTER TABLE "media"."training_locks" ADD CONSTRAINT "training_locks_uploaded_image_fkey" FOREIGN KEY ("uploaded_image_id") REFERENCES "media"."uploaded_images"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "media"."avatars" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "prompt_text" text NOT NULL, "storage_key" text NOT NULL, "thumbnail_key" text NOT NULL, "custom_model_id" integer, "share_token" character varying(64) NOT NULL, "source_ref" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE DEFAULT now(), CONSTRAINT "avatars_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "avatars_storage_key_key" ON "media"."avatars" ("storage_key")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "avatars_thumbnail_key_key" ON "media"."avatars" ("thumbnail_key")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "avatars_share_token_key" ON "media"."avatars" ("share_token")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "avatars_source_ref_key" ON "media"."avatars" ("source_ref")`);
    await queryRunner.query(`CREATE INDEX "avatars_user_created_idx" ON "media"."avatars" ("user_id", "created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['avatars', 'training_locks', 'uploaded_images']) {
      await queryRunner.query(`DROP TABLE "media"."${table}"`);
    }
  }
}
