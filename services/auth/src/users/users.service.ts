import { ADMIN_USER_ID, AuthEvents, type RegisterRequest, type Role, type User as UserView } from '@likeness/contracts';
import { APP_CONFIG, DomainError, OutboxService } from '@likeness/nest-kit';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import type { AuthConfig } from '../auth.config.js';
import { PasswordHasher } from './password-hasher.js';
import { User, liveUser } from './user.entity.js';

export const USERNAME_TAKEN = 'That username is already taken. Please choose another.';
export const EMAIL_TAKEN = 'An account with that email already exists. Try logging in instead.';

/** A login name (a username or an e-mail address) as accounts are looked up by it. */
export function normalisedLogin(login: string): string {
  return login.trim().toLowerCase();
}

@Injectable()
export class UsersService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AuthConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly hasher: PasswordHasher,
  ) {}

  /**
   * Creates an account and announces it (UserRegistered) in one transaction. The administrator
   * (id 1) is made by AdminBootstrap (`admin`); outside production, for convenience, the first
   * account ever registered (id 1) is the administrator too. In production nobody registers their
   * way to it.
   */
  async register(request: RegisterRequest, options: { id?: number; admin?: boolean } = {}): Promise<User> {
    const email = request.email.toLowerCase();
    await this.assertAvailable(this.dataSource.manager, request.username, email);
    const passwordHash = await this.hasher.hash(request.password);
    try {
      return await this.dataSource.transaction(async (manager) => {
        // The row's created_at and the UserRegistered's time are the same moment.
        const createdAt = new Date();
        const user = await this.insert(
          manager,
          { username: request.username, email, passwordHash, role: 'user', createdAt, updatedAt: createdAt },
          options.id,
        );
        if (options.admin || (user.id === ADMIN_USER_ID && this.config.NODE_ENV !== 'production')) {
          user.role = 'admin' satisfies Role;
          await manager.update(User, user.id, { role: user.role });
        }
        await this.outbox.add(
          manager,
          AuthEvents.UserRegistered,
          {
            userId: user.id,
            username: user.username,
            email: user.email,
            role: user.role,
            registeredAt: createdAt.toISOString(),
          },
          { occurredAt: createdAt },
        );
        return user;
      });
    } catch (error) {
      throw this.uniqueViolationToDomainError(error) ?? error;
    }
  }

  /** An account that exists (not deleted). */
  async findById(id: number): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ id, ...liveUser });
  }

  /** Whether any account, deleted ones included, has the id. */
  async idTaken(id: number): Promise<boolean> {
    return this.dataSource.getRepository(User).existsBy({ id });
  }

  /** A username or an e-mail address, regardless of case. */
  async findByLogin(login: string): Promise<User | null> {
    const value = normalisedLogin(login);
    return this.dataSource
      .getRepository(User)
      .createQueryBuilder('user')
      .where(value.includes('@') ? 'user.email = :value' : 'lower(user.username) = :value', { value })
      .andWhere('user.deleted_at IS NULL')
      .getOne();
  }

  async getById(id: number): Promise<User> {
    const user = await this.findById(id);
    if (!user) throw new DomainError('COMMON.NOT_FOUND', 'That account no longer exists.');
    return user;
  }

  toView(user: User): UserView {
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      role: user.role,
      createdAt: user.createdAt.toISOString(),
    };
  }

  private async assertAvailable(manager: EntityManager, username: string, email: string): Promise<void> {
    const clash = await manager
      .getRepository(User)
      .createQueryBuilder('user')
      .where('lower(user.username) = lower(:username)', { username })
      .orWhere('user.email = :email', { email })
      .getMany();
    if (clash.some((user) => user.username.toLowerCase() === username.toLowerCase())) {
      throw new DomainError('AUTH.USERNAME_TAKEN', USERNAME_TAKEN, [{ path: 'username', message: USERNAME_TAKEN }]);
    }
    if (clash.some((user) => user.email === email)) {
      throw new DomainError('AUTH.EMAIL_TAKEN', EMAIL_TAKEN, [{ path: 'email', message: EMAIL_TAKEN }]);
    }
  }

  /** Two registrations racing for one name: the database decides, the loser gets the same 409. */
  private uniqueViolationToDomainError(error: unknown): DomainError | undefined {
    if (!(error instanceof QueryFailedError)) return undefined;
    const constraint = (error.driverError as { constraint?: string }).constraint;
    if (constraint === 'users_username_lower_key') {
      return new DomainError('AUTH.USERNAME_TAKEN', USERNAME_TAKEN, [{ path: 'username', message: USERNAME_TAKEN }]);
    }
    if (constraint === 'users_email_key') {
      return new DomainError('AUTH.EMAIL_TAKEN', EMAIL_TAKEN, [{ path: 'email', message: EMAIL_TAKEN }]);
    }
    return undefined;
  }

  /**
   * Keeps id 1 for the administrator the bootstrap creates: while nobody holds it, the id
   * sequence starts at 2 (a no-op once any account exists).
   */
  async reserveAdministratorId(): Promise<void> {
    const table = this.dataSource.getRepository(User).metadata.tablePath;
    // pg_sequence_last_value is null until the sequence has handed out its first value.
    await this.dataSource.query(
      `SELECT setval(sequence, $2, true) FROM (SELECT pg_get_serial_sequence($1, 'id')::regclass AS sequence) AS s
        WHERE pg_sequence_last_value(sequence) IS NULL AND NOT EXISTS (SELECT 1 FROM ${quoted(table)})`,
      [table, ADMIN_USER_ID],
    );
  }

  private async insert(manager: EntityManager, values: Omit<User, 'id' | 'deletedAt'>, id?: number) {
    if (id === undefined) return manager.save(manager.create(User, values));
    // TypeORM leaves a generated id out of its INSERT unless the columns are named.
    await manager
      .createQueryBuilder()
      .insert()
      .into(User, ['id', 'username', 'email', 'passwordHash', 'role', 'createdAt', 'updatedAt'])
      .values({ id, ...values })
      .execute();
    await this.advanceIdSequence(manager);
    return manager.findOneByOrFail(User, { id });
  }

  /** After inserting an explicit id, keep the sequence ahead of it. */
  private async advanceIdSequence(manager: EntityManager): Promise<void> {
    const table = manager.getRepository(User).metadata.tablePath;
    await manager.query(
      `SELECT setval(pg_get_serial_sequence($1, 'id'), GREATEST((SELECT max(id) FROM ${quoted(table)}), 1))`,
      [table],
    );
  }
}

function quoted(tablePath: string): string {
  return tablePath
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
}
