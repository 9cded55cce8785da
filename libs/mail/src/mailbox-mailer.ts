import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Mailer, OutgoingMail, SentMail } from './mailer.js';
import { domainOf, messageIdOf } from './message-id.js';

export interface MailboxMailerOptions {
  /** Where the `.eml` files go (`DATA_DIR/mail`). */
  directory: string;
  from: string;
  /** Told about each message: its subject, recipient, file and the links in it. */
  log: (message: string, details: { to: string; subject: string; file: string; links: string[] }) => void;
}

/**
 * The dev mailbox: each message is built as a real MIME message and written to a `.eml` file
 * (any mail client opens it), and its links are logged, so a reset works on one machine with no
 * mail server. Honest about what it is: nothing leaves the machine.
 */
export class MailboxMailer implements Mailer {
  readonly kind = 'mailbox';
  private readonly composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  private readonly domain: string;

  constructor(private readonly options: MailboxMailerOptions) {
    this.domain = domainOf(options.from);
  }

  async send(mail: OutgoingMail): Promise<SentMail> {
    const messageId = messageIdOf(mail.id, this.domain);
    const info = await this.composer.sendMail({
      from: this.options.from,
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      messageId,
    });
    await mkdir(this.options.directory, { recursive: true });
    // Sortable by time; the id part tells copies of one message (a retried send) apart from others.
    const file = join(
      this.options.directory,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageId.slice(1, 17)}.eml`,
    );
    await writeFile(file, info.message as Buffer, { mode: 0o600 });
    const links = [...new Set(mail.text.match(/https?:\/\/[^\s<>"')]+/g) ?? [])];
    this.options.log(`Mail to ${mail.to}: "${mail.subject}" (written to ${file})`, {
      to: mail.to,
      subject: mail.subject,
      file,
      links,
    });
    return { messageId, destination: file };
  }

  async close(): Promise<void> {
    this.composer.close();
  }
}
