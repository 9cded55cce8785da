import { LegalDocument, LegalList, LegalSection } from './legal-document';

interface StoredItem {
  name: string;
  purpose: string;
  lifetime: string;
}

/** The gateway's session cookies (gateway/src/auth/session-cookies.ts); all httpOnly, SameSite=Strict, on /api only. */
const cookies: readonly StoredItem[] = [
  {
    name: 'likeness_access',
    purpose: 'Proves that you are signed in on each request to our API.',
    lifetime: '15 minutes, renewed while you use the app',
  },
  {
    name: 'likeness_refresh',
    purpose: 'Renews the access cookie so you stay signed in; it changes on every use.',
    lifetime: '30 days; removed when you log out',
  },
  {
    name: 'likeness_device',
    purpose:
      'Remembers that this browser signed in to your account before, so someone guessing passwords elsewhere cannot lock you out. Sent only when you log in.',
    lifetime: '180 days; kept after you log out',
  },
];

/** What the app keeps in the browser's local storage: settings, never sent to us. */
const localItems: readonly StoredItem[] = [
  { name: 'ui-theme', purpose: 'Your choice of light, dark or system theme.', lifetime: 'Until you clear it' },
  {
    name: 'likeness-output-format',
    purpose: 'The image format you last chose for downloads.',
    lifetime: 'Until you clear it',
  },
  {
    name: 'onboarding_completed',
    purpose: 'That you finished or skipped the welcome tour, so it does not open again.',
    lifetime: 'Until you clear it',
  },
  {
    name: 'pwa-install-dismissed',
    purpose: 'That you closed the card offering to install the app, so it does not show again.',
    lifetime: 'Until you clear it',
  },
  {
    name: 'selectedPrompt',
    purpose: 'A prompt you picked in the Scene Explorer, until the create page takes it.',
    lifetime: 'Until the create page reads it',
  },
];

/** One row per item: its name, what it does and how long it lasts, readable at any width. */
function StoredList({ label, items }: { label: string; items: readonly StoredItem[] }) {
  return (
    <ul aria-label={label} className="divide-y rounded-xl border">
      {items.map(({ name, purpose, lifetime }) => (
        <li key={name} className="grid gap-1 p-4 sm:grid-cols-[12rem_1fr] sm:gap-x-6">
          <code className="font-mono text-sm font-medium [overflow-wrap:anywhere]">{name}</code>
          <dl className="grid gap-1 text-sm">
            <div>
              <dt className="sr-only">What it does</dt>
              <dd>{purpose}</dd>
            </div>
            <div>
              <dt className="sr-only">How long</dt>
              <dd className="text-muted-foreground">{lifetime}</dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** /cookie-policy: the only cookies are the session cookies. */
export function CookiePolicyPage() {
  return (
    <LegalDocument
      title="Cookie Policy"
      summary={
        <p>
          In short: Likeness sets only the cookies that keep you signed in. There are no advertising, analytics or
          tracking cookies, and no cookies from anyone else, so there is nothing to opt out of.
        </p>
      }
    >
      <LegalSection title="1. The cookies we set">
        <p>
          When you sign in, our server sets three cookies. They are strictly necessary for signing in, so they need no
          consent. Each is sent only to our own API (the <code>/api</code> address of this site), never to other sites;
          scripts in the page cannot read them (httpOnly); they are never sent along with requests started by other
          sites (SameSite=Strict); and over HTTPS they travel only encrypted (Secure).
        </p>
        <StoredList label="Cookies Likeness sets" items={cookies} />
        <p>Logging out removes the access and refresh cookies. Visitors who are not signed in get no cookies at all.</p>
      </LegalSection>

      <LegalSection title="2. What we do not use">
        <LegalList>
          <li>No advertising or retargeting cookies.</li>
          <li>No analytics cookies or tracking pixels.</li>
          <li>
            No third-party cookies: every page, image and font is served from this site. Card payments open
            Stripe&apos;s payment form, which Stripe runs under its own cookie policy.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection title="3. Settings kept in your browser">
        <p>
          A few settings are kept in your browser&apos;s local storage. They are not cookies: they are never sent to us
          and stay on your device.
        </p>
        <StoredList label="Settings kept in local storage" items={localItems} />
      </LegalSection>

      <LegalSection title="4. Managing cookies">
        <p>
          You can delete cookies and local storage in your browser&apos;s settings at any time. Deleting the session
          cookies signs you out; blocking them means you cannot sign in.
        </p>
      </LegalSection>

      <LegalSection title="5. Changes">
        <p>We will tell you about changes to this policy at least 30 days before they take effect.</p>
      </LegalSection>
    </LegalDocument>
  );
}
