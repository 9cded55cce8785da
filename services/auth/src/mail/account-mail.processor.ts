import { AuthJobs, type JobPayload } from '@likeness/contracts';
import { type JobContext, JobHandler, type JobProcessor } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import { AccountMails } from './account-mails.js';
import { mailJobOptions } from './mail-jobs.js';

/** Sends the notices (welcome, model ready, training failed, receipt, password changed, account deleted). */
@Injectable()
@JobHandler(AuthJobs.sendAccountMail, mailJobOptions)
export class AccountMailProcessor implements JobProcessor<typeof AuthJobs.sendAccountMail> {
  private readonly logger = new Logger(AccountMailProcessor.name);

  constructor(private readonly mails: AccountMails) {}

  run(mail: JobPayload<typeof AuthJobs.sendAccountMail>, { envelope }: JobContext) {
    return this.mails.send(mail, envelope.id);
  }

  async giveUp(mail: JobPayload<typeof AuthJobs.sendAccountMail>, error: unknown, context: JobContext) {
    this.logger.error(
      `Gave up sending the ${mail.kind} mail ${context.envelope.id} after ${context.maxAttempts} attempts: ${(error as Error).message}`,
    );
  }
}
