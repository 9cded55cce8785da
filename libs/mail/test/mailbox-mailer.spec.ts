import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { MailTemplates, MailboxMailer } from '../src/index.js';

describe(MailboxMailer.name, () => {
  it('should write each message as an .eml file a mail client opens, and log its links', async () => {
    const directory = join(mkdtempSync(join(tmpdir(), 'likeness-mailbox-')), 'mail');
    const logged: { message: string; details: { links: string[]; to: string; subject: string } }[] = [];
    const sut = new MailboxMailer({
      directory,
      from: 'Likeness <noreply@likeness.example>',
      log: (message, details) => logged.push({ message, details }),
    });
    const rendered = MailTemplates.passwordReset(
      { productName: 'Likeness', supportEmail: 'help@likeness.example', publicUrl: 'http://127.0.0.1:3000' },
      { username: 'ada', resetUrl: 'http://127.0.0.1:3000/reset-password?token=abc', expiresInMinutes: 60 },
    );

    const sent = await sut.send({ to: 'ada@example.com', id: 'password-reset:7', ...rendered });

    const files = readdirSync(directory);
    expect(files).toHaveLength(1);
    expect(sent.destination).toBe(join(directory, files[0]!));
    const parsed = await simpleParser(readFileSync(sent.destination));
    expect(parsed.subject).toBe('Reset your Likeness password');
    expect(parsed.to).toMatchObject({ text: 'ada@example.com' });
    expect(parsed.text).toContain('http://127.0.0.1:3000/reset-password?token=abc');
    expect(parsed.html).toContain('Choose a new password');
    expect(parsed.messageId).toBe(sent.messageId);
    expect(logged).toEqual([
      {
        message: expect.stringContaining('Mail to ada@example.com: "Reset your Likeness password"'),
        details: expect.objectContaining({
          to: 'ada@example.com',
          subject: 'Reset your Likeness password',
          links: ['http://127.0.0.1:3000/reset-password?token=abc'],
        }),
      },
    ]);
  });
});
