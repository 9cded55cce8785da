import { AuthRpc, type RpcRequest } from '@likeness/contracts';
import { RpcHandler, snapshotPage } from '@likeness/nest-kit';
import { Controller } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

interface UserRow {
  id: number;
  username: string;
  email: string;
  role: 'user' | 'admin';
  created_at: Date;
}

/** The live accounts, for reporting's rebuild (docs: README, reporting notes). */
@Controller()
export class SnapshotController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @RpcHandler(AuthRpc.snapshotUsers)
  users(request: RpcRequest<typeof AuthRpc.snapshotUsers>) {
    return snapshotPage(
      this.dataSource.manager,
      request,
      `SELECT id, username, email, role, created_at FROM auth.users
       WHERE deleted_at IS NULL AND ($1::integer IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      (row: UserRow) => ({
        userId: row.id,
        username: row.username,
        email: row.email,
        role: row.role,
        registeredAt: row.created_at.toISOString(),
      }),
      (item) => item.userId,
    );
  }
}
