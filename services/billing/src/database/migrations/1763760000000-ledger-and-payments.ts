import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, the double-entry ledger, holds, the packages on sale, payments, local test intents. */
export class LedgerAndPayments1763760000000 implements MigrationInterface {
  name = 'LedgerAndPayments1763760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "billing"."accounts" ("user_id" integer NOT NULL, "balance" integer NOT NULL DEFAULT '0', "held" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "accounts_held_check" CHECK ("held" >= 0 AND "held" <= "balance"), CONSTRAINT "accounts_balance_check" CHECK ("balance" >= 0), CONSTRAINT "accounts_pkey" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "billing"."ledger_entries" ("id" BIGSERIAL NOT NULL, "account" character varying(64) NOT NULL, "amount" integer NOT NULL, "reason" character varying(32) NOT NULL, "idempotency_key" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ledger_entries_amount_check" CHECK ("amount" <> 0), CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ledger_entries_account_idx" ON "billing"."ledger_entries" ("account")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ledger_entries_key_account_key" ON "billing"."ledger_entries" ("idempotency_key", "account")`,
    );
    await queryRunner.query(
      `CREATE TABLE "billing"."holds" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" integer NOT NULL, "reference" character varying(200) NOT NULL, "amount" integer NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'held', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "resolved_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "holds_status_check" CHECK ("status" IN ('held', 'captured', 'released')), CONSTRAINT "holds_amount_check" CHECK ("amount" > 0), CONSTRAINT "holds_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "holds_open_expiry_idx" ON "billing"."holds" ("expires_at") WHERE "status" = 'held'`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "holds_reference_key" ON "billing"."holds" ("reference")`);
    await queryRunner.query(
      `CREATE TABLE "billing"."credit_packages" ("id" character varying(32) NOT NULL, "name" character varying(64) NOT NULL, "description" text NOT NULL, "credits" integer NOT NULL, "price_cents" integer NOT NULL, "value" character varying(64) NOT NULL, "popular" boolean NOT NULL DEFAULT false, "sort_order" integer NOT NULL DEFAULT '0', "active" boolean NOT NULL DEFAULT true, CONSTRAINT "credit_packages_price_check" CHECK ("price_cents" > 0), CONSTRAINT "credit_packages_credits_check" CHECK ("credits" > 0), CONSTRAINT "credit_packages_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "billing"."payments" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" integer NOT NULL, "provider" character varying(16) NOT NULL, "provider_payment_id" character varying(255), "package_id" character varying(32) NOT NULL, "amount_cents" integer NOT NULL, "credits" integer NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "failure_message" text, "credits_reversed" integer NOT NULL DEFAULT '0', "credits_unrecovered" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "payments_amount_check" CHECK ("amount_cents" > 0 AND "credits" > 0), CONSTRAINT "payments_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed', 'refunded', 'disputed')), CONSTRAINT "payments_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "payments_user_idx" ON "billing"."payments" ("user_id")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "payments_provider_payment_id_key" ON "billing"."payments" ("provider_payment_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "billing"."local_payment_intents" ("id" character varying(64) NOT NULL, "client_secret" character varying(128) NOT NULL, "idempotency_key" character varying(64) NOT NULL, "amount_cents" integer NOT NULL, "currency" character varying(3) NOT NULL DEFAULT 'usd', "status" character varying(32) NOT NULL DEFAULT 'requires_payment_method', "metadata" jsonb NOT NULL, "failure_message" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "local_payment_intents_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "local_payment_intents_idempotency_key" ON "billing"."local_payment_intents" ("idempotency_key")`,
    );
    // The packages on sale (SPEC.md §9, DESIGN.md §3).
    await queryRunner.query(
      `INSERT INTO "billing"."credit_packages" ("id", "name", "description", "credits", "price_cents", "value", "popular", "sort_order") VALUES
        ('starter', 'Starter Pack', 'Everything to try Likeness: train your AI twin once and make your first photos.', 50, 500, '10 generations + 1 training', false, 1),
        ('creator', 'Creator Pack', 'For regular creators: more styles, more scenes, more photos of you.', 125, 1100, '20% bonus credits', true, 2),
        ('professional', 'Professional Pack', 'For professionals: commercial usage rights and priority generation speed.', 275, 2200, '25% bonus credits', false, 3)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'local_payment_intents',
      'payments',
      'credit_packages',
      'holds',
      'ledger_entries',
      'accounts',
    ]) {
      await queryRunner.query(`DROP TABLE "billing"."${table}"`);
    }
  }
}
