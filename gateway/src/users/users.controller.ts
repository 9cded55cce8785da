import { authMeRoute, currentUserRoute } from '@likeness/contracts';
import { Controller, Get, UseGuards } from '@nestjs/common';
import { CurrentUser } from '../auth/current-user.decorator.js';
import type { AuthenticatedUser } from '../auth/access-tokens.js';
import { SessionGuard } from '../auth/session.guard.js';
import { CurrentUserService } from './current-user.service.js';

@Controller()
@UseGuards(SessionGuard)
export class UsersController {
  constructor(private readonly currentUser: CurrentUserService) {}

  @Get(currentUserRoute.path)
  user(@CurrentUser() user: AuthenticatedUser) {
    return this.currentUser.get(user.id);
  }

  @Get(authMeRoute.path)
  me(@CurrentUser() user: AuthenticatedUser) {
    return this.currentUser.get(user.id);
  }
}
