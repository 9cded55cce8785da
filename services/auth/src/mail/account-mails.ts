import { AuthJobs, BillingRpc, TRAINING_COST, TrainingRpc } from '@likeness/contracts';
import { type MailTemplate, MailTemplates, appLink } from '@likeness/mail';
import { RpcClient } from '@likeness/nest-kit';
import { Injectable, Logger } from '@nestjs/common';
import { UsersService } from '../users/users.service.js';
import { MailSender } from './mail-sender.js';

/** Training's failure reasons end by saying the credits were not charged; the mail says it its own way. */
const NOT_CHARGED_SENTENCE = /\s*Your credits were not charged\.\s*$/;

/**
 * Turns a queued notice into the message its user reads, from what auth knows (the address and
 * the username, as they are when the mail goes) and what the notice carries. A notice for an
 * account that no longer exists is dropped.
 */
@Injectable()
export class AccountMails {
  private readonly logger = new Logger(AccountMails.name);

  constructor(
    private readonly users: UsersService,
    private readonly sender: MailSender,
    private readonly rpc: RpcClient,
  ) {}

  /** `id`: stable for this notice (the job's id), so a retried send keeps its Message-ID. */
  async send(mail: AuthJobs.AccountMail, id: string): Promise<void> {
    const messageId = `${mail.kind}:${id}`;
    if (mail.kind === 'account-deleted') {
      await letter(MailTemplates.accountDeleted, { username: mail.username })(this.sender, mail.to, messageId);
      return;
    }
    const user = await this.users.findById(mail.userId);
    if (!user) {
      this.logger.log(`No ${mail.kind} mail for user ${mail.userId}: the account is gone`);
      return;
    }
    await (
      await this.letterFor(mail, user.username)
    )(this.sender, user.email, messageId);
  }

  /** The message a notice becomes for its user, with what it needs from training or billing. */
  private async letterFor(mail: Exclude<AuthJobs.AccountMail, { kind: 'account-deleted' }>, username: string) {
    const link = (path: `/${string}`, query?: Record<string, string>) => appLink(this.sender.context, path, query);
    switch (mail.kind) {
      case 'welcome':
        return letter(MailTemplates.welcome, { username, dashboardUrl: link('/dashboard') });
      case 'password-changed':
        return letter(MailTemplates.passwordChanged, { username, forgotUrl: link('/forgot-password') });
      case 'model-ready':
        return letter(MailTemplates.modelReady, { username, modelName: mail.modelName, createUrl: link('/create') });
      case 'training-failed':
        return letter(MailTemplates.trainingFailed, {
          username,
          modelName: await this.modelName(mail.userId, mail.modelId),
          reason: mail.reason.replace(NOT_CHARGED_SENTENCE, '') || 'the training did not finish.',
          credits: TRAINING_COST,
          modelsUrl: link('/models'),
        });
      case 'receipt':
        return letter(MailTemplates.receipt, {
          username,
          packageName: await this.packageName(mail.packageId),
          credits: mail.credits,
          amountCents: mail.amountCents,
          paidAt: new Date(mail.paidAt).toLocaleDateString('en-US', {
            year: 'numeric',
            month: 'long',
            day: 'numeric',
            timeZone: 'UTC',
          }),
          paymentId: mail.paymentId,
          billingUrl: link('/profile', { tab: 'billing' }),
        });
    }
  }

  /** The failed model's name, from training; "your model" when training cannot say. */
  private async modelName(userId: number, modelId: number): Promise<string> {
    try {
      const models = await this.rpc.call(TrainingRpc.listModels, { userId });
      return models.find((model) => model.id === modelId)?.modelName ?? 'your model';
    } catch (error) {
      this.logger.warn(`Model ${modelId}'s name is unavailable for its mail: ${(error as Error).message}`);
      return 'your model';
    }
  }

  /** The package's name, from billing; its id when billing cannot say. */
  private async packageName(packageId: string): Promise<string> {
    try {
      const packages = await this.rpc.call(BillingRpc.listPackages, {});
      return packages.find((candidate) => candidate.id === packageId)?.name ?? packageId;
    } catch (error) {
      this.logger.warn(`Package ${packageId}'s name is unavailable for its receipt: ${(error as Error).message}`);
      return packageId;
    }
  }
}

/** A template with its data, ready to go to an address. */
function letter<D>(template: MailTemplate<D>, data: D) {
  return (sender: MailSender, to: string, id: string) => sender.send({ to, template, data, id });
}
