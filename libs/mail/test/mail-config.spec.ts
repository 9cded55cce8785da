import { z } from 'zod';
import { checkMailConfig, mailConfigShape, mailProviderOf } from '../src/index.js';

const schema = z
  .object({ ...mailConfigShape, NODE_ENV: z.enum(['development', 'production', 'test']).default('development') })
  .superRefine(checkMailConfig);

const problems = (env: Record<string, string>) => {
  const result = schema.safeParse(env);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('mail settings', () => {
  it('should use the dev mailbox on one machine and SMTP when a URL is given', () => {
    expect(mailProviderOf(schema.parse({}))).toBe('mailbox');
    expect(mailProviderOf(schema.parse({ SMTP_URL: 'smtp://mailpit:1025' }))).toBe('smtp');
    expect(mailProviderOf(schema.parse({ SMTP_URL: 'smtp://mailpit:1025', MAIL_PROVIDER: 'mailbox' }))).toBe('mailbox');
  });

  it('should refuse the dev mailbox in production unless it is named, and demand the public origin', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([
      expect.stringMatching(/^SMTP_URL: in production, mail needs SMTP_URL; set MAIL_PROVIDER=mailbox/),
      'PUBLIC_URL: in production, set PUBLIC_URL: links in mails point at it',
    ]);
    expect(problems({ NODE_ENV: 'production', MAIL_PROVIDER: 'mailbox', PUBLIC_URL: 'https://x.example' })).toEqual([]);
    expect(
      problems({ NODE_ENV: 'production', SMTP_URL: 'smtps://u:p@smtp.example:465', PUBLIC_URL: 'https://x.example' }),
    ).toEqual([]);
  });

  it('should say what is wrong with a bad URL or a provider without its settings', () => {
    expect(problems({ SMTP_URL: 'http://mail' })).toEqual(['SMTP_URL: must be an smtp:// or smtps:// URL']);
    expect(problems({ MAIL_PROVIDER: 'smtp' })).toEqual(['SMTP_URL: set SMTP_URL with MAIL_PROVIDER=smtp']);
  });
});
