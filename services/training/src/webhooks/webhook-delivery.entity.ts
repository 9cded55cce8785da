import { CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A provider webhook already acted on (its `webhook-id`): a replay of it changes nothing. */
@Entity({ name: 'webhook_deliveries' })
@Index('webhook_deliveries_received_idx', ['receivedAt'])
export class WebhookDelivery {
  @PrimaryColumn({
    name: 'webhook_id',
    type: 'varchar',
    length: 256,
    primaryKeyConstraintName: 'webhook_deliveries_pkey',
  })
  webhookId!: string;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;
}
