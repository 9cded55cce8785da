import Handlebars from 'handlebars';

/** What every message needs besides its own data. */
export interface MailContext {
  productName: string;
  /** Where people write to us; shown in every footer. */
  supportEmail: string;
  /** The public origin links point at (`https://likeness.example`). */
  publicUrl: string;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

interface TemplateSource {
  subject: string;
  /** The message's body in HTML (inside the layout): `{{value}}` is escaped, always. */
  html: string;
  /** The same in plain text. */
  text: string;
}

// Each template is compiled twice: for HTML with Handlebars' escaping, and for text without it
// (text is not HTML, so escaping would only garble it). `strict` makes a missing value an error
// rather than an empty gap in a message someone reads.
const html = Handlebars.create();
const text = Handlebars.create();
html.registerHelper('dollars', (cents: number) => (cents / 100).toFixed(2));
text.registerHelper('dollars', (cents: number) => (cents / 100).toFixed(2));

const htmlLayout = html.compile(
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{subject}}</title></head>
<body style="margin:0;padding:0;background:#f4f4f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2330">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f7;padding:24px 0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:20px;font-weight:700;color:#6d28d9;padding-bottom:16px">{{context.productName}}</td></tr>
<tr><td style="font-size:15px;line-height:1.6">{{{body}}}</td></tr>
<tr><td style="font-size:12px;line-height:1.5;color:#6b7280;padding-top:24px;border-top:1px solid #e5e7eb">
You are receiving this because you have a {{context.productName}} account.
Questions? Write to <a href="mailto:{{context.supportEmail}}" style="color:#6d28d9">{{context.supportEmail}}</a>.<br>
{{context.productName}} turns your selfies into AI photos and avatars.
</td></tr></table></td></tr></table></body></html>`,
  { strict: true },
);

const textLayout = text.compile(
  `{{context.productName}}

{{{body}}}

--
You are receiving this because you have a {{context.productName}} account.
Questions? Write to {{context.supportEmail}}.
{{context.productName}} turns your selfies into AI photos and avatars.
`,
  { strict: true, noEscape: true },
);

/** A message template: typed data in, subject and both parts out. */
export type MailTemplate<D> = (context: MailContext, data: D) => RenderedMail;

function defineTemplate<D extends object>(source: TemplateSource): MailTemplate<D> {
  const subject = text.compile(source.subject, { strict: true, noEscape: true });
  const htmlBody = html.compile(source.html, { strict: true });
  const textBody = text.compile(source.text, { strict: true, noEscape: true });
  return (context, data) => {
    const values = { ...data, context };
    const renderedSubject = subject(values).replace(/\s+/g, ' ').trim();
    return {
      subject: renderedSubject,
      html: htmlLayout({ subject: renderedSubject, context, body: htmlBody(values) }),
      text: textLayout({ context, body: textBody(values).trim() }),
    };
  };
}

const button = (href: string, label: string) =>
  `<p style="margin:24px 0"><a href="{{${href}}}" style="background:#6d28d9;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;display:inline-block;font-weight:600">${label}</a></p>`;

export const MailTemplates = {
  welcome: defineTemplate<{ username: string; dashboardUrl: string }>({
    subject: 'Welcome to {{context.productName}}, {{username}}',
    html: `<p>Hi {{username}},</p>
<p>Your account is ready, with 5 free credits to start. Here is how it works:</p>
<ol><li>Upload 12-20 selfies with different angles, expressions and light.</li>
<li>Train your personal model (30 credits, about 15-20 minutes).</li>
<li>Create photos of yourself from a prompt or the character customizer (5 credits a run).</li></ol>
${button('dashboardUrl', 'Go to your dashboard')}`,
    text: `Hi {{username}},

Your account is ready, with 5 free credits to start. Here is how it works:
1. Upload 12-20 selfies with different angles, expressions and light.
2. Train your personal model (30 credits, about 15-20 minutes).
3. Create photos of yourself from a prompt or the character customizer (5 credits a run).

Go to your dashboard: {{dashboardUrl}}`,
  }),

  passwordReset: defineTemplate<{ username: string; resetUrl: string; expiresInMinutes: number }>({
    subject: 'Reset your {{context.productName}} password',
    html: `<p>Hi {{username}},</p>
<p>Someone (hopefully you) asked to reset the password of your account. This link works once, for {{expiresInMinutes}} minutes:</p>
${button('resetUrl', 'Choose a new password')}
<p style="font-size:13px;color:#6b7280">If the button does not work, copy this address into your browser:<br>{{resetUrl}}</p>
<p>If you did not ask for this, you can ignore this message: your password stays as it is.</p>`,
    text: `Hi {{username}},

Someone (hopefully you) asked to reset the password of your account. This link works once, for {{expiresInMinutes}} minutes:

{{resetUrl}}

If you did not ask for this, you can ignore this message: your password stays as it is.`,
  }),

  passwordChanged: defineTemplate<{ username: string; forgotUrl: string }>({
    subject: 'Your {{context.productName}} password was changed',
    html: `<p>Hi {{username}},</p>
<p>The password of your account was just changed, and every other device was signed out.</p>
<p>If this was you, there is nothing more to do. If it was not, reset your password now and write to us:</p>
${button('forgotUrl', 'Reset my password')}`,
    text: `Hi {{username}},

The password of your account was just changed, and every other device was signed out.

If this was you, there is nothing more to do. If it was not, reset your password now and write to us:
{{forgotUrl}}`,
  }),

  modelReady: defineTemplate<{ username: string; modelName: string; createUrl: string }>({
    subject: 'Your model "{{modelName}}" is ready',
    html: `<p>Hi {{username}},</p>
<p>Training finished: your model <strong>{{modelName}}</strong> is ready. Each run of up to 4 photos costs 5 credits.</p>
${button('createUrl', 'Create your first photos')}`,
    text: `Hi {{username}},

Training finished: your model "{{modelName}}" is ready. Each run of up to 4 photos costs 5 credits.

Create your first photos: {{createUrl}}`,
  }),

  trainingFailed: defineTemplate<{
    username: string;
    modelName: string;
    reason: string;
    credits: number;
    modelsUrl: string;
  }>({
    subject: 'Training "{{modelName}}" failed: your {{credits}} credits were not charged',
    html: `<p>Hi {{username}},</p>
<p>We could not train your model <strong>{{modelName}}</strong>: {{reason}}</p>
<p>Your {{credits}} credits were not charged. You can try again with the same or other selfies.</p>
${button('modelsUrl', 'Go to your models')}`,
    text: `Hi {{username}},

We could not train your model "{{modelName}}": {{reason}}

Your {{credits}} credits were not charged. You can try again with the same or other selfies.

Go to your models: {{modelsUrl}}`,
  }),

  receipt: defineTemplate<{
    username: string;
    packageName: string;
    credits: number;
    amountCents: number;
    paidAt: string;
    paymentId: string;
    billingUrl: string;
  }>({
    subject: 'Your {{context.productName}} receipt: {{packageName}}, {{credits}} credits',
    html: `<p>Hi {{username}},</p>
<p>Thank you for your purchase. The credits are in your account and never expire.</p>
<table role="presentation" cellpadding="6" cellspacing="0" style="border-collapse:collapse;font-size:14px">
<tr><td style="color:#6b7280">Package</td><td>{{packageName}}</td></tr>
<tr><td style="color:#6b7280">Credits</td><td>{{credits}}</td></tr>
<tr><td style="color:#6b7280">Amount</td><td>\${{dollars amountCents}}</td></tr>
<tr><td style="color:#6b7280">Date</td><td>{{paidAt}}</td></tr>
<tr><td style="color:#6b7280">Reference</td><td>{{paymentId}}</td></tr></table>
<p style="font-size:13px;color:#6b7280">Credit purchases are final and non-refundable unless the law requires otherwise.</p>
${button('billingUrl', 'See your credit history')}`,
    text: `Hi {{username}},

Thank you for your purchase. The credits are in your account and never expire.

Package:   {{packageName}}
Credits:   {{credits}}
Amount:    \${{dollars amountCents}}
Date:      {{paidAt}}
Reference: {{paymentId}}

Credit purchases are final and non-refundable unless the law requires otherwise.
Your credit history: {{billingUrl}}`,
  }),

  accountDeleted: defineTemplate<{ username: string }>({
    subject: 'Your {{context.productName}} account was deleted',
    html: `<p>Hi {{username}},</p>
<p>Your account was deleted as you asked. Your selfies, models and photos are being erased now; we keep the record of your payments, without your name or e-mail, because accounting law requires it.</p>
<p>Thank you for trying {{context.productName}}.</p>`,
    text: `Hi {{username}},

Your account was deleted as you asked. Your selfies, models and photos are being erased now; we keep the record of your payments, without your name or e-mail, because accounting law requires it.

Thank you for trying {{context.productName}}.`,
  }),
} as const;

/** A link into the SPA from the public origin and a fixed path, with validated query values. */
export function appLink(context: MailContext, path: `/${string}`, query: Record<string, string> = {}): string {
  const url = new URL(path, context.publicUrl);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}
