import { ADMIN_USER_ID, AuthEvents, type RegisterRequest, type Role, type User as UserView } from '@likeness/contracts';
import { DomainError, OutboxService } from '@likeness/nest-kit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { PasswordHasher } from './password-hasher.js';
import { User } from './user.entity.js';

export const USERNAME_TAKEN = 'That username is already taken. Please choose another.';
export const EMAIL_TAKEN = 'An account with that email already exists. Try logging in instead.';

@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly hasher: PasswordHasher,
  ) {}

  /**
   * Creates an account and announces it (UserRegistered) in one transaction. The first account
   * ever created, id 1, is the administrator.
   */
  async register(request: RegisterRequest, options: { id?: number } = {}): Promise<User> {
    const email = request.email.toLowerCase();
    await this.assertAvailable(this.dataSource.manager, request.username, email);
    const passwordHash = await this.hasher.hash(request.password);
    try {
      return await this.dataSource.transaction(async (manager) => {
        const user = manager.create(User, { username: request.username, email, passwordHash, role: 'user' });
        if (options.id !== undefined) user.id = options.id;
        await manager.save(user);
        if (options.id !== undefined) await this.advanceIdSequence(manager);
        if (user.id === ADMIN_USER_ID) {
          user.role = 'admin' satisfies Role;
          await manager.update(User, user.id, { role: user.role });
        }
        await this.outbox.add(manager, AuthEvents.UserRegistered, {
          userId: user.id,
          username: user.username,
          email: user.email,
          role: user.role,
          registeredAt: user.createdAt.toISOString(),
        });
        return user;
      });
    } catch (error) {
      throw this.uniqueViolationToDomainError(error) ?? error;
    }
  }

  async findById(id: number): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ id });
  }

  /** A username or an e-mail address, regardless of case. */
  async findByLogin(login: string): Promise<User | null> {
    const value = login.trim().toLowerCase();
    return this.dataSource
      .getRepository(User)
      .createQueryBuilder('user')
      .where(value.includes('@') ? 'user.email = :value' : 'lower(user.username) = :value', { value })
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
