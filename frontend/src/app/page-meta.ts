import { matchPath } from 'react-router';
import { paths } from '@/config/paths';

export interface PageMeta {
  title: string;
  description: string;
}

const SITE = 'Likeness';

/** The landing page's own: what the product is (index.html says the same before the app starts). */
export const DEFAULT_META: PageMeta = {
  title: `${SITE} — AI avatars from your selfies`,
  description:
    'Likeness turns your selfies into stunning AI avatars. Train a personal AI model, generate high-resolution photos and pay only for what you use with prepaid credits.',
};

function page(title: string, description: string): PageMeta {
  return { title: `${title} · ${SITE}`, description };
}

/** Each route's title and meta description, by path pattern; the first match wins. */
const pageMeta: readonly [pattern: string, meta: PageMeta][] = [
  [paths.landing, DEFAULT_META],
  [paths.auth, page('Log In or Sign Up', 'Log in to Likeness, or create an account with 5 free credits.')],
  [paths.login, page('Log In or Sign Up', 'Log in to Likeness, or create an account with 5 free credits.')],
  [paths.forgotPassword, page('Forgot Password', 'Get a link to set a new password for your Likeness account.')],
  [paths.resetPassword, page('Reset Password', 'Choose a new password for your Likeness account.')],
  [
    paths.about,
    page('About', 'Why we build Likeness, the technology behind your personal AI model, and what we stand for.'),
  ],
  [
    paths.privacyPolicy,
    page('Privacy Policy', 'What Likeness stores about you, where, for how long, and how to delete it.'),
  ],
  [paths.termsOfService, page('Terms of Service', 'The rules for using Likeness and buying prepaid credits.')],
  [paths.cookiePolicy, page('Cookie Policy', 'Likeness sets only the cookies that keep you signed in.')],
  [
    paths.sceneExplorer,
    page(
      'Transformation Scene Explorer',
      'Browse 25 ready-made scenes, from boardrooms to dragon riders, and use their prompts for your own AI avatars.',
    ),
  ],
  [paths.dashboard, page('Dashboard', 'Your avatars, models and credits at a glance.')],
  [paths.create, page('Create', 'Generate AI photos of yourself from a prompt or the character customizer.')],
  [paths.gallery, page('Gallery', 'Every avatar you have created: download, share and copy prompts.')],
  [paths.models, page('Models', 'Upload selfies and train your personal AI model.')],
  [paths.credits, page('Buy Credits', 'Prepaid credit packs that never expire.')],
  ['/checkout/:packageId', page('Checkout', 'Pay for your credit pack.')],
  [paths.paymentResult, page('Payment', 'The result of your payment.')],
  [paths.profile, page('Profile Settings', 'Your account, billing, security and help.')],
  [paths.plans, page('Plans', 'Credit packs for every need.')],
  [paths.admin, page('Admin Dashboard', 'Users, payments and generation jobs.')],
];

const notFound = page('Page Not Found', DEFAULT_META.description);

/** The title and description for a pathname; an unknown path is the not-found page. */
export function pageMetaFor(pathname: string): PageMeta {
  return pageMeta.find(([pattern]) => matchPath(pattern, pathname))?.[1] ?? notFound;
}
