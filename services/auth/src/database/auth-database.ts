import { defineServiceDatabase } from '@likeness/nest-kit';
import { PasswordResetToken } from '../passwords/password-reset-token.entity.js';
import { RefreshToken } from '../sessions/refresh-token.entity.js';
import { User } from '../users/user.entity.js';
import { migrations } from './migrations/index.js';

export const authDatabase = defineServiceDatabase({
  schema: 'auth',
  entities: [User, RefreshToken, PasswordResetToken],
  migrations,
});
