import { ADMIN_USER_ID, registerRequestSchema } from '@likeness/contracts';
import { APP_CONFIG, DomainError } from '@likeness/nest-kit';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AuthConfig } from '../auth.config.js';
import { UsersService } from './users.service.js';

/**
 * Creates the administrator (id 1) from ADMIN_USERNAME / ADMIN_EMAIL / ADMIN_PASSWORD at
 * start, when they are set and no account holds id 1 yet. Without them, in development the first
 * account registered becomes the administrator; in production id 1 is kept free for them (the
 * first account registered gets id 2), so nobody registers their way to administrator.
 */
@Injectable()
export class AdminBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(AdminBootstrap.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AuthConfig,
    private readonly users: UsersService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { ADMIN_USERNAME, ADMIN_EMAIL, ADMIN_PASSWORD } = this.config;
    if (this.config.NODE_ENV === 'production') await this.users.reserveAdministratorId();
    if (!ADMIN_USERNAME || !ADMIN_EMAIL || !ADMIN_PASSWORD) return;
    // Held, even by an account deleted since (its id stays taken): nothing to create.
    if (await this.users.idTaken(ADMIN_USER_ID)) return;
    const request = registerRequestSchema.safeParse({
      username: ADMIN_USERNAME,
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    if (!request.success) {
      throw new Error(
        `The administrator settings are not valid: ${request.error.issues.map((issue) => issue.message).join('; ')}`,
      );
    }
    try {
      await this.users.register(request.data, { id: ADMIN_USER_ID, admin: true });
      this.logger.log(`Created the administrator account "${ADMIN_USERNAME}"`);
    } catch (error) {
      // Another replica created it, or the name is held by someone else: both are reported, neither is fatal.
      if (!(error instanceof DomainError) && !(await this.users.idTaken(ADMIN_USER_ID))) throw error;
      if (error instanceof DomainError) this.logger.warn(`Administrator not created: ${error.message}`);
    }
  }
}
