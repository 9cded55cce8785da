import { AuthJobs, type JobPayload } from '@likeness/contracts';
import { type JobContext, JobHandler, type JobProcessor } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import { mailJobOptions } from '../mail/mail-jobs.js';
import { PasswordResetsService } from './password-resets.service.js';

/** Mails reset links (see PasswordResetsService.mailLink). */
@Injectable()
@JobHandler(AuthJobs.sendPasswordResetMail, mailJobOptions)
export class PasswordResetMailProcessor implements JobProcessor<typeof AuthJobs.sendPasswordResetMail> {
  private readonly logger = new Logger(PasswordResetMailProcessor.name);

  constructor(private readonly resets: PasswordResetsService) {}

  run({ email }: JobPayload<typeof AuthJobs.sendPasswordResetMail>, { envelope }: JobContext) {
    return this.resets.mailLink(email, envelope.id);
  }

  async giveUp(_payload: JobPayload<typeof AuthJobs.sendPasswordResetMail>, error: unknown, context: JobContext) {
    this.logger.error(
      `Gave up sending the password reset mail of request ${context.envelope.id} after ${context.maxAttempts} attempts: ${(error as Error).message}`,
    );
  }
}
