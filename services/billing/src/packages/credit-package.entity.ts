import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'credit_packages' })
@Check('credit_packages_credits_check', '"credits" > 0')
@Check('credit_packages_price_check', '"price_cents" > 0')
export class CreditPackageRow {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'credit_packages_pkey' })
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'integer' })
  credits!: number;

  @Column({ name: 'price_cents', type: 'integer' })
  priceCents!: number;

  @Column({ type: 'varchar', length: 64 })
  value!: string;

  @Column({ type: 'boolean', default: false })
  popular!: boolean;

  @Column({ name: 'sort_order', type: 'integer', default: 0 })
  sortOrder!: number;

  @Column({ type: 'boolean', default: true })
  active!: boolean;
}
