import { readFile, readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as a mail client shows it: who it was for, and its parts as parsed. */
export interface CaughtMail {
  /** The envelope's sender and recipients (what the SMTP session said; the file's headers for the dev mailbox). */
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** The HTML part with character references decoded, as a mail client renders its links. */
  html: string;
  messageId: string;
  parsed: ParsedMail;
}

/** What a catcher answers to the message of attempt `attempt` (1 first): accept, or refuse with an SMTP reply. */
export type SmtpVerdict = (attempt: number) => { code: number; message: string } | undefined;

export interface SmtpCatcher {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  port: number;
  /** Every message accepted so far, in arrival order. */
  readonly received: CaughtMail[];
  /** Messages offered so far, refused ones included. */
  attempts(): number;
  /** Changes what the catcher answers from now on. */
  answer(verdict: SmtpVerdict): void;
  close(): Promise<void>;
}

function caught(parsed: ParsedMail, from: string, to: string[]): CaughtMail {
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  return {
    from,
    to,
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: html.replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    messageId: parsed.messageId ?? '',
    parsed,
  };
}

function addresses(field: ParsedMail['to']): string[] {
  const list = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return list.flatMap((group) => group.value.map((address) => address.address ?? ''));
}

/**
 * A real SMTP server on loopback (no TLS, no login) that keeps what it accepts, parsed. By default
 * it accepts everything; `answer` makes it refuse, e.g. with 451 for an outage or 550 for good.
 */
export async function startSmtpCatcher(verdict: SmtpVerdict = () => undefined): Promise<SmtpCatcher> {
  const received: CaughtMail[] = [];
  let attempts = 0;
  let current = verdict;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, callback) => {
      attempts += 1;
      const refusal = current(attempts);
      if (refusal) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code })));
        return;
      }
      simpleParser(stream).then(
        (parsed) => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          received.push(
            caught(
              parsed,
              from,
              session.envelope.rcptTo.map((recipient) => recipient.address),
            ),
          );
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  server.on('error', () => {
    // A client that hangs up mid-session is the client's problem; the catcher keeps serving.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    attempts: () => attempts,
    answer: (next) => {
      current = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every message the dev mailbox wrote under `<dataDir>/mail`, oldest first. */
export async function readDevMailbox(dataDir: string): Promise<CaughtMail[]> {
  const directory = join(dataDir, 'mail');
  const files = (await readdir(directory).catch(() => [] as string[])).filter((file) => file.endsWith('.eml')).sort();
  return Promise.all(
    files.map(async (file) => {
      const parsed = await simpleParser(await readFile(join(directory, file)));
      const from = Array.isArray(parsed.from) ? '' : (parsed.from?.value[0]?.address ?? '');
      return caught(parsed, from, addresses(parsed.to));
    }),
  );
}

/** The link in a message's text part that starts with `prefix` (e.g. `${origin}/reset-password`). */
export function linkIn(mail: CaughtMail, prefix: string): string | undefined {
  return mail.text.match(/https?:\/\/[^\s<>"')]+/g)?.find((link) => link.startsWith(prefix));
}
