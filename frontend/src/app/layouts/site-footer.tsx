import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { SupportMailLink } from '@/components/support-mail-link';
import { landingSections, paths, profileUrl } from '@/config/paths';
import { socialLinkIcons, socialLinkLabel } from '@/config/social-links';
import { useAppConfig } from '@/lib/app-config/get-app-config';
import { cn } from '@/lib/cn';

/** SPEC §2: the footer's columns. */
const columns = [
  {
    title: 'Product',
    links: [
      { to: landingSections.howItWorks, label: 'How It Works' },
      { to: landingSections.examples, label: 'Examples' },
      { to: landingSections.pricing, label: 'Pricing' },
      { to: paths.sceneExplorer, label: 'Scene Explorer' },
    ],
  },
  {
    title: 'Resources',
    links: [
      { to: paths.about, label: 'About Us' },
      { to: landingSections.testimonials, label: 'Testimonials' },
      { to: profileUrl('help'), label: 'Help & Support' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: paths.privacyPolicy, label: 'Privacy Policy' },
      { to: paths.termsOfService, label: 'Terms of Service' },
      { to: paths.cookiePolicy, label: 'Cookie Policy' },
    ],
  },
] as const;

const linkClasses =
  'rounded text-sm text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** The footer of every page, public and signed in: columns, social links, support mail and copyright. */
export function SiteFooter({ className }: { className?: string }) {
  return (
    <footer className={cn('border-t bg-background/60', className)}>
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1.4fr_repeat(3,1fr)] lg:px-8">
        <div className="flex flex-col items-start gap-4">
          <Logo />
          <p className="max-w-xs text-sm text-muted-foreground">
            AI avatars from your selfies, paid with prepaid credits that never expire.
          </p>
          <p className="text-sm text-muted-foreground">
            Support: <SupportMailLink />
          </p>
          <SocialLinks />
        </div>
        <div className="grid grid-cols-2 gap-8 sm:grid-cols-3 md:contents">
          {columns.map(({ title, links }) => (
            <nav key={title} aria-label={title} className="flex flex-col gap-3">
              <h2 className="text-sm font-semibold">{title}</h2>
              <ul className="flex flex-col gap-2.5">
                {links.map(({ to, label }) => (
                  <li key={label}>
                    <Link to={to} className={linkClasses}>
                      {label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
      </div>
      <div className="border-t">
        <p className="mx-auto w-full max-w-6xl px-4 py-5 text-center text-sm text-muted-foreground sm:px-6 sm:text-left lg:px-8">
          © 2025 Likeness. All rights reserved.
        </p>
      </div>
    </footer>
  );
}

/** The deployment's own social accounts (GET /api/config); none configured, nothing is shown. */
function SocialLinks() {
  const config = useAppConfig();
  const links = config.data?.socialLinks ?? [];
  if (links.length === 0) return null;
  return (
    <ul className="flex gap-2">
      {links.map(({ kind, url }) => {
        const Icon = socialLinkIcons[kind];
        const label = socialLinkLabel(url);
        return (
          <li key={kind}>
            <a
              href={url}
              aria-label={label}
              title={label}
              target="_blank"
              rel="noreferrer"
              className="grid size-9 place-items-center rounded-full border text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <Icon className="size-4" aria-hidden="true" />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
