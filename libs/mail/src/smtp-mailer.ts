import { createTransport } from 'nodemailer';
import { type Mailer, MailDeliveryError, type OutgoingMail, type SentMail } from './mailer.js';
import { domainOf, messageIdOf } from './message-id.js';

export interface SmtpMailerOptions {
  /** `smtp://[user:pass@]host[:port]` (STARTTLS when offered) or `smtps://...` (TLS from the start). */
  url: string;
  from: string;
}

/** Sends through an SMTP server (a provider's relay in production, a mail catcher in compose). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp';
  private readonly transport;
  private readonly domain: string;

  constructor(private readonly options: SmtpMailerOptions) {
    const url = new URL(options.url);
    const secure = url.protocol === 'smtps:';
    this.transport = createTransport(
      {
        host: url.hostname,
        port: Number(url.port) || (secure ? 465 : 587),
        secure,
        ...(url.username
          ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
          : {}),
        // A server that does not answer must not hold a job for minutes: the job retries later.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      },
      { from: options.from },
    );
    this.domain = domainOf(options.from);
  }

  async send(mail: OutgoingMail): Promise<SentMail> {
    const messageId = messageIdOf(mail.id, this.domain);
    try {
      const info = await this.transport.sendMail({
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        messageId,
      });
      return { messageId, destination: String(info.response ?? 'accepted') };
    } catch (error) {
      const responseCode = (error as { responseCode?: number }).responseCode;
      // 5xx is the server's final word on this message (a bad address); anything else may pass later.
      const permanent = typeof responseCode === 'number' && responseCode >= 500;
      throw new MailDeliveryError(`SMTP refused the message: ${(error as Error).message}`, !permanent, {
        cause: error,
      });
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
