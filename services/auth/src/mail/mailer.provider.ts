import { type MailContext, type Mailer, mailContextOf, mailProviderOf, mailerFromConfig } from '@likeness/mail';
import { APP_CONFIG } from '@likeness/nest-kit';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { AuthConfig } from '../auth.config.js';

/** Injection tokens of the mail port and of what every message needs (product name, support, links). */
export const MAILER = Symbol('MAILER');
export const MAIL_CONTEXT = Symbol('MAIL_CONTEXT');

export const mailerProvider: Provider = {
  provide: MAILER,
  useFactory: (config: AuthConfig): Mailer => {
    const logger = new Logger('Mail');
    if (mailProviderOf(config) === 'smtp') logger.log('Mail is sent over SMTP');
    else {
      const message = `Mail is written to ${config.DATA_DIR}/mail as .eml files (the dev mailbox); nothing leaves this machine`;
      // Said louder in production, where it was asked for by name.
      if (config.NODE_ENV === 'production') logger.warn(message);
      else logger.log(message);
    }
    return mailerFromConfig(config, (message, details) => {
      const links = (details as { links?: string[] }).links ?? [];
      logger.log(links.length > 0 ? `${message}; links: ${links.join(' ')}` : message);
    });
  },
  inject: [APP_CONFIG],
};

export const mailContextProvider: Provider = {
  provide: MAIL_CONTEXT,
  useFactory: (config: AuthConfig): MailContext => mailContextOf(config),
  inject: [APP_CONFIG],
};

/** Closes the SMTP connections on shutdown. */
@Injectable()
export class MailerShutdown implements OnApplicationShutdown {
  constructor(@Inject(MAILER) private readonly mailer: Mailer) {}

  onApplicationShutdown(): Promise<void> {
    return this.mailer.close();
  }
}
