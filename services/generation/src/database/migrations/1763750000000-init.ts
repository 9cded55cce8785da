import { createMessagingTables, dropMessagingTables } from '@likeness/nest-kit';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1763750000000 implements MigrationInterface {
  name = 'Init1763750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner, 'generation');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropMessagingTables(queryRunner, 'generation');
  }
}
