import { type Balance, WELCOME_CREDITS } from '@likeness/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { CreditLedger } from './credit-ledger.js';

@Injectable()
export class AccountsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ledger: CreditLedger,
  ) {}

  balance(userId: number): Promise<Balance> {
    return this.ledger.balance(this.dataSource.manager, userId);
  }

  /** Opens the account with the welcome credits, once (the RPC and UserRegistered may both ask). */
  open(userId: number): Promise<Balance> {
    return this.dataSource.transaction((manager) => this.openIn(manager, userId));
  }

  async openIn(manager: EntityManager, userId: number): Promise<Balance> {
    await this.ledger.open(manager, userId);
    // Deleted before its registration was heard of (the two events race): no welcome credits.
    if (await this.ledger.isClosed(manager, userId)) return this.ledger.balance(manager, userId);
    const { balance } = await this.ledger.post(manager, {
      userId,
      amount: WELCOME_CREDITS,
      reason: 'welcome',
      key: `welcome:${userId}`,
      counterAccount: 'system:promotions',
    });
    return balance;
  }
}
