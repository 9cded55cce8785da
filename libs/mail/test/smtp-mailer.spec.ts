import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { MailDeliveryError, MailTemplates, SmtpMailer } from '../src/index.js';

interface Received {
  from: string;
  to: string[];
  parsed: ParsedMail;
}

/** A real SMTP server on loopback that keeps what it is sent, or refuses with the given reply. */
async function startSmtpServer(options: { refuse?: { code: number; message: string } } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === 'likeness' && auth.password === 'p@ss:word'
        ? callback(null, { user: 'likeness' })
        : callback(new Error('Invalid username or password')),
    onData: (stream, session, callback) => {
      if (options.refuse) {
        stream.resume();
        stream.on('end', () => {
          const error = new Error(options.refuse!.message) as Error & { responseCode: number };
          error.responseCode = options.refuse!.code;
          callback(error);
        });
        return;
      }
      simpleParser(stream).then(
        (parsed) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            parsed,
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const context = {
  productName: 'Likeness',
  supportEmail: 'help@likeness.example',
  publicUrl: 'https://likeness.example',
};

describe(SmtpMailer.name, () => {
  it('should deliver both parts to a real SMTP server, with a Message-ID fixed by the message id', async () => {
    const smtp = await startSmtpServer();
    const sut = new SmtpMailer({
      url: `smtp://likeness:${encodeURIComponent('p@ss:word')}@127.0.0.1:${smtp.port}`,
      from: 'Likeness <noreply@likeness.example>',
    });
    try {
      const rendered = MailTemplates.passwordReset(context, {
        username: 'ada',
        resetUrl: 'https://likeness.example/reset-password?token=abc',
        expiresInMinutes: 60,
      });
      const first = await sut.send({ to: 'ada@example.com', id: 'password-reset:1', ...rendered });
      const again = await sut.send({ to: 'ada@example.com', id: 'password-reset:1', ...rendered });

      expect(smtp.received).toHaveLength(2);
      const [mail] = smtp.received;
      expect(mail!.from).toBe('noreply@likeness.example');
      expect(mail!.to).toEqual(['ada@example.com']);
      expect(mail!.parsed.subject).toBe('Reset your Likeness password');
      expect(mail!.parsed.text).toContain('https://likeness.example/reset-password?token=abc');
      // As a mail client reads the link (Handlebars writes `=` as an entity in attributes).
      const html = String(mail!.parsed.html).replace(/&#x([0-9a-f]+);/gi, (_, hex: string) =>
        String.fromCharCode(parseInt(hex, 16)),
      );
      expect(html).toContain('href="https://likeness.example/reset-password?token=abc"');
      expect(mail!.parsed.messageId).toBe(first.messageId);
      // A retried send is the same message to a mail client.
      expect(again.messageId).toBe(first.messageId);
      expect(first.messageId).toMatch(/^<[0-9a-f]{32}@likeness\.example>$/);
    } finally {
      await sut.close();
      await smtp.close();
    }
  });

  it('should call a permanent refusal final and a temporary one worth a retry', async () => {
    for (const [code, retryable] of [
      [550, false],
      [451, true],
    ] as const) {
      const smtp = await startSmtpServer({ refuse: { code, message: `refused with ${code}` } });
      const sut = new SmtpMailer({
        url: `smtp://likeness:${encodeURIComponent('p@ss:word')}@127.0.0.1:${smtp.port}`,
        from: 'noreply@likeness.example',
      });
      try {
        const failure = await sut
          .send({ to: 'ada@example.com', id: `refused:${code}`, subject: 's', html: '<p>h</p>', text: 't' })
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(MailDeliveryError);
        expect((failure as MailDeliveryError).retryable).toBe(retryable);
      } finally {
        await sut.close();
        await smtp.close();
      }
    }
  });

  it('should call a server that is not there worth a retry', async () => {
    const smtp = await startSmtpServer();
    await smtp.close();
    const sut = new SmtpMailer({ url: `smtp://127.0.0.1:${smtp.port}`, from: 'noreply@likeness.example' });
    const failure = await sut
      .send({ to: 'ada@example.com', id: 'down', subject: 's', html: '<p>h</p>', text: 't' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as MailDeliveryError).retryable).toBe(true);
    await sut.close();
  });
});
