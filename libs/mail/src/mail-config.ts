import { join } from 'node:path';
import { z } from 'zod';
import type { Mailer } from './mailer.js';
import { MailboxMailer } from './mailbox-mailer.js';
import { SmtpMailer } from './smtp-mailer.js';
import type { MailContext } from './templates.js';

/** The mail settings of an app that sends mail, from its environment. */
export const mailConfigShape = {
  /** `smtp` sends through SMTP_URL; `mailbox` writes `.eml` files under DATA_DIR/mail. Unset: SMTP when SMTP_URL is set. */
  MAIL_PROVIDER: z.enum(['smtp', 'mailbox']).optional(),
  /** `smtp://[user:pass@]host[:port]` (STARTTLS when offered) or `smtps://...`. */
  SMTP_URL: z
    .string()
    .optional()
    .transform((value) => value || undefined)
    .pipe(
      z
        .string()
        .regex(/^smtps?:\/\/\S+$/, { error: 'must be an smtp:// or smtps:// URL' })
        .optional(),
    ),
  MAIL_FROM: z.string().min(3).default('Likeness <noreply@likeness.local>'),
  SUPPORT_EMAIL: z.email({ error: 'must be an e-mail address' }).default('support@likeness.local'),
  /** The origin links in mails point at. */
  PUBLIC_URL: z.url({ error: 'must be a URL' }).optional(),
  /** The dev mailbox lives under `<DATA_DIR>/mail`. */
  DATA_DIR: z.string().min(1).default('.data'),
};

export type MailConfig = z.output<z.ZodObject<typeof mailConfigShape>>;

/** Which adapter the settings choose. */
export function mailProviderOf(config: MailConfig): 'smtp' | 'mailbox' {
  return config.MAIL_PROVIDER ?? (config.SMTP_URL ? 'smtp' : 'mailbox');
}

/**
 * The checks that span several mail settings; add them with `.superRefine`. In production the
 * dev mailbox must be chosen by name (a mail that silently goes to a file is a lost mail), and
 * links need the public origin.
 */
export function checkMailConfig(config: MailConfig & { NODE_ENV: string }, context: z.RefinementCtx): void {
  if (config.MAIL_PROVIDER === 'smtp' && !config.SMTP_URL) {
    context.addIssue({ code: 'custom', message: 'set SMTP_URL with MAIL_PROVIDER=smtp', path: ['SMTP_URL'] });
  }
  if (config.NODE_ENV !== 'production') return;
  if (!config.SMTP_URL && config.MAIL_PROVIDER !== 'mailbox') {
    context.addIssue({
      code: 'custom',
      message:
        'in production, mail needs SMTP_URL; set MAIL_PROVIDER=mailbox to write mail to files under DATA_DIR/mail knowingly',
      path: ['SMTP_URL'],
    });
  }
  if (!config.PUBLIC_URL) {
    context.addIssue({
      code: 'custom',
      message: 'in production, set PUBLIC_URL: links in mails point at it',
      path: ['PUBLIC_URL'],
    });
  }
}

export function mailContextOf(config: MailConfig, productName = 'Likeness'): MailContext {
  return { productName, supportEmail: config.SUPPORT_EMAIL, publicUrl: config.PUBLIC_URL ?? 'http://127.0.0.1:3000' };
}

export function mailerFromConfig(config: MailConfig, log: (message: string, details: object) => void): Mailer {
  if (mailProviderOf(config) === 'smtp' && config.SMTP_URL) {
    return new SmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM });
  }
  return new MailboxMailer({ directory: join(config.DATA_DIR, 'mail'), from: config.MAIL_FROM, log });
}
