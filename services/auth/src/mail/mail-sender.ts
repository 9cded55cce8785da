import { type MailContext, type MailTemplate, type Mailer, MailDeliveryError } from '@likeness/mail';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MAIL_CONTEXT, MAILER } from './mailer.provider.js';

/** One message to send: its template, the data the template needs, and a stable id. */
export interface MailOrder<D> {
  to: string;
  template: MailTemplate<D>;
  data: D;
  /** Stable across retries (e.g. `welcome:<job id>`): it becomes the Message-ID. */
  id: string;
}

/**
 * Renders a message and hands it to the mail port. A refusal that a retry may cure (the server is
 * away, busy) throws, so the job tries again later; a final refusal of this message (5xx: a bad
 * address) is logged and dropped, since sending it again would only be refused again.
 */
@Injectable()
export class MailSender {
  private readonly logger = new Logger(MailSender.name);

  constructor(
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(MAIL_CONTEXT) readonly context: MailContext,
  ) {}

  async send<D>(order: MailOrder<D>): Promise<boolean> {
    const rendered = order.template(this.context, order.data);
    try {
      await this.mailer.send({ to: order.to, id: order.id, ...rendered });
      return true;
    } catch (error) {
      if (error instanceof MailDeliveryError && !error.retryable) {
        this.logger.error(`Mail ${order.id} ("${rendered.subject}") refused for good, not sent: ${error.message}`);
        return false;
      }
      throw error;
    }
  }
}
