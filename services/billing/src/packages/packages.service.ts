import type { CreditPackage } from '@likeness/contracts';
import { DomainError } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CreditPackageRow } from './credit-package.entity.js';

export const PACKAGE_NOT_FOUND = 'That credit package does not exist.';

@Injectable()
export class PackagesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(): Promise<CreditPackage[]> {
    const rows = await this.dataSource
      .getRepository(CreditPackageRow)
      .find({ where: { active: true }, order: { sortOrder: 'ASC' } });
    return rows.map(toCreditPackage);
  }

  async get(id: string): Promise<CreditPackageRow> {
    const row = await this.dataSource.getRepository(CreditPackageRow).findOneBy({ id, active: true });
    if (!row) throw new DomainError('BILLING.PACKAGE_NOT_FOUND', PACKAGE_NOT_FOUND);
    return row;
  }
}

export function toCreditPackage(row: CreditPackageRow): CreditPackage {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    credits: row.credits,
    price: row.priceCents / 100,
    value: row.value,
    popular: row.popular,
  };
}
