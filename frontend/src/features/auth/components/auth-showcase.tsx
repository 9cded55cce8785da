import { Coins, Download, Wand2 } from 'lucide-react';
import { Logo } from '@/components/logo';
import { cn } from '@/lib/cn';

const highlights = [
  {
    icon: Wand2,
    title: 'AI transformations',
    text: 'Train a personal model on 12-20 selfies, then turn it into portraits, characters and scenes from a simple prompt.',
  },
  {
    icon: Coins,
    title: 'Simple credit system',
    text: 'Pay as you go with prepaid credits that never expire. No monthly fees, and every new account starts with 5 free credits.',
  },
  {
    icon: Download,
    title: 'High-resolution downloads',
    text: 'Download every avatar in high resolution, ready for profiles, portfolios and print.',
  },
] as const;

/** The side panel of the auth screen: what Likeness is and why to sign up. */
export function AuthShowcase({ className }: { className?: string }) {
  return (
    <section
      aria-labelledby="auth-showcase-title"
      className={cn(
        'bg-brand-gradient relative isolate overflow-hidden rounded-3xl p-7 text-white shadow-2xl shadow-fuchsia-500/20 sm:p-10',
        className,
      )}
    >
      {/* Soft light blobs give the gradient depth without images. */}
      <div aria-hidden="true" className="absolute -top-24 -right-24 -z-10 size-72 rounded-full bg-white/15 blur-3xl" />
      <div
        aria-hidden="true"
        className="absolute -bottom-32 -left-16 -z-10 size-80 rounded-full bg-violet-950/30 blur-3xl"
      />

      <Logo className="text-xl" tone="onBrand" />
      <h2
        id="auth-showcase-title"
        className="mt-8 text-2xl leading-tight font-semibold tracking-tight text-balance sm:text-4xl"
      >
        Transform your selfies into stunning AI avatars with just a few clicks.
      </h2>
      <ul className="mt-8 grid gap-5">
        {highlights.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-4">
            <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-white/15 ring-1 ring-white/25">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <div>
              <h3 className="font-semibold">{title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-white/85">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
