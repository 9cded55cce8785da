/** One message, ready to go: both parts rendered from the same template. */
export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /**
   * A stable id for this message (e.g. `password-reset:<token id>`): it becomes the Message-ID, so
   * a message sent twice after a retry is recognisable as one by the mail client and by us.
   */
  id: string;
}

export interface SentMail {
  messageId: string;
  /** Where the message went: the SMTP server's answer, or the file the dev mailbox wrote. */
  destination: string;
}

/** The mail port: SMTP in production, the dev mailbox on one machine. */
export interface Mailer {
  readonly kind: 'smtp' | 'mailbox';
  send(mail: OutgoingMail): Promise<SentMail>;
  close(): Promise<void>;
}

/** The sending failed: a retry later may work (the server was away, refused for now...). */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    /** False when the server refused the message for good (a bad recipient): retrying will not help. */
    readonly retryable: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'MailDeliveryError';
  }
}
