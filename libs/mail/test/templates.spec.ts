import { type MailContext, MailTemplates, appLink } from '../src/index.js';

const context: MailContext = {
  productName: 'Likeness',
  supportEmail: 'help@likeness.example',
  publicUrl: 'https://likeness.example',
};

const samples = {
  welcome: { username: 'ada', dashboardUrl: 'https://likeness.example/dashboard' },
  passwordReset: {
    username: 'ada',
    resetUrl: 'https://likeness.example/reset-password?token=abc',
    expiresInMinutes: 60,
  },
  passwordChanged: { username: 'ada', forgotUrl: 'https://likeness.example/forgot-password' },
  modelReady: { username: 'ada', modelName: "Ada's model", createUrl: 'https://likeness.example/create' },
  trainingFailed: {
    username: 'ada',
    modelName: "Ada's model",
    reason: 'the provider stopped.',
    credits: 30,
    modelsUrl: 'https://likeness.example/models',
  },
  receipt: {
    username: 'ada',
    packageName: 'Creator Pack',
    credits: 125,
    amountCents: 1100,
    paidAt: 'November 23, 2026',
    paymentId: 'pi_123',
    billingUrl: 'https://likeness.example/profile?tab=billing',
  },
  accountDeleted: { username: 'ada' },
} as const;

describe('MailTemplates', () => {
  it.each(Object.keys(samples) as (keyof typeof samples)[])(
    'should render %s with a subject, an HTML and a text part, the product name and the footer',
    (name) => {
      const render = MailTemplates[name] as (
        context: MailContext,
        data: object,
      ) => ReturnType<typeof MailTemplates.welcome>;
      const mail = render(context, samples[name]);
      expect(mail.subject).toMatch(/\S/);
      expect(mail.subject).not.toMatch(/[\r\n]/);
      for (const part of [mail.html, mail.text]) {
        expect(part).toContain('Likeness');
        expect(part).toContain('help@likeness.example');
        expect(part).toContain('You are receiving this because you have a Likeness account.');
      }
      expect(mail.html).toMatch(/^<!doctype html>/);
      expect(mail.text).not.toMatch(/<[a-z]/i);
    },
  );

  it('should escape what people typed in the HTML part, and leave the text part readable', () => {
    const mail = MailTemplates.modelReady(context, {
      username: '<script>alert(1)</script>',
      modelName: 'Ada "&" <b>bold</b>',
      createUrl: 'https://likeness.example/create',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('Ada &quot;&amp;&quot; &lt;b&gt;bold&lt;/b&gt;');
    expect(mail.text).toContain('Hi <script>alert(1)</script>,');
    expect(mail.subject).toBe('Your model "Ada "&" <b>bold</b>" is ready');
  });

  it('should keep a subject on one line whatever a name holds', () => {
    const mail = MailTemplates.welcome(context, {
      username: 'ada\r\nBcc: victim@example.com',
      dashboardUrl: 'https://likeness.example/dashboard',
    });
    expect(mail.subject).toBe('Welcome to Likeness, ada Bcc: victim@example.com');
  });

  it('should show an amount in dollars from cents on the receipt', () => {
    const mail = MailTemplates.receipt(context, samples.receipt);
    expect(mail.text).toContain('Amount:    $11.00');
    expect(mail.html).toContain('$11.00');
    expect(mail.text).toContain('non-refundable');
  });

  it('should refuse to render with a value missing rather than send a gap', () => {
    expect(() => MailTemplates.welcome(context, { username: 'ada' } as never)).toThrow(/dashboardUrl/);
  });
});

describe(appLink.name, () => {
  it('should build links from the public origin, a fixed path and encoded query values', () => {
    expect(appLink(context, '/reset-password', { token: 'a+b/c=&x' })).toBe(
      'https://likeness.example/reset-password?token=a%2Bb%2Fc%3D%26x',
    );
    expect(appLink({ ...context, publicUrl: 'https://likeness.example/app/' }, '/dashboard')).toBe(
      'https://likeness.example/dashboard',
    );
  });
});
