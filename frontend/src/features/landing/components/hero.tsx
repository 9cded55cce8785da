import type { CurrentUser } from '@likeness/contracts';
import { ArrowRight, Coins, Images } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Illustration } from '@/components/ui/illustration';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { useRecentAvatars } from '@/lib/avatars/recent-avatars';
import { heroExamples } from '../data/examples';

/** SPEC §9: the hero shows at most 4 avatars. */
const HERO_AVATARS = 4;

const tileClasses =
  'relative overflow-hidden rounded-2xl border bg-muted shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_12px_32px_-16px_hsl(var(--shadow-color)/0.35)]';

/** SPEC §2 hero: the headline, the two calls to action, and the user's newest avatars or four examples. */
export function Hero({ user }: { user: CurrentUser | null }) {
  return (
    <section
      aria-labelledby="hero-title"
      className="mx-auto w-full max-w-6xl px-4 pt-10 pb-16 sm:px-6 sm:pt-16 lg:px-8"
    >
      {/* Top-aligned: centred, the text and the pictures moved each other whenever one of them grew
          late (the web font, the rest of the HTML), a layout shift on a slow device. */}
      <div className="grid items-start gap-10 lg:grid-cols-[1.1fr_1fr] lg:gap-14">
        <div className="flex flex-col items-start gap-6">
          <p className="inline-flex items-center gap-2 rounded-full border bg-background/70 px-3 py-1 text-sm font-medium text-muted-foreground">
            <span className="size-2 rounded-full bg-emerald-500" aria-hidden="true" />
            Your personal AI model, trained on your selfies
          </p>
          <h1 id="hero-title" className="text-4xl leading-[1.08] font-semibold tracking-tight text-balance sm:text-6xl">
            Turn your selfies into <span className="text-brand-gradient">realistic AI photos</span>
          </h1>
          <p className="max-w-xl text-lg text-muted-foreground text-pretty">
            Transform your selfies into stunning AI avatars with just a few clicks. Train a model of your likeness once,
            then put yourself in any scene, style or outfit.
          </p>
          <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            <Button asChild variant="brand" size="lg">
              <Link to={paths.credits}>
                <Coins aria-hidden="true" />
                Get Credits - Start at $5
              </Link>
            </Button>
            <Button asChild variant="outline" size="lg">
              <a href="#examples">
                See Real Examples
                <ArrowRight aria-hidden="true" />
              </a>
            </Button>
          </div>
          <p className="text-sm text-muted-foreground">Pay as you go. No subscription, and credits never expire.</p>
        </div>
        <HeroPictures user={user} />
      </div>
    </section>
  );
}

/** A signed-in user with avatars sees theirs; everyone else (and everyone until the session answers) the examples. */
function HeroPictures({ user }: { user: CurrentUser | null }) {
  // The server lists newest first: its first page of four is the hero's.
  const recent = useRecentAvatars(user, HERO_AVATARS);

  if (user && recent.length > 0) {
    return (
      <div className="flex flex-col gap-4">
        <p className="text-base font-medium">Welcome back, {user.username}! Here are your recent avatars:</p>
        <ul className="grid grid-cols-2 gap-3 sm:gap-4">
          {recent.map((avatar, index) => (
            <li key={avatar.id} className={cn(tileClasses, 'aspect-square')}>
              <img
                src={avatar.thumbnailUrl}
                alt={avatar.promptText || 'Your avatar'}
                width={512}
                height={512}
                className="size-full object-cover"
              />
              {index === recent.length - 1 ? <ViewAllOverlay /> : null}
            </li>
          ))}
        </ul>
      </div>
    );
  }

  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4" aria-label="Example avatars">
      {heroExamples.map((example) => (
        <li key={example.id} className={cn(tileClasses, 'aspect-[4/5]')}>
          <Illustration
            source={example.image}
            alt={`Example: ${example.style}`}
            sizes="(min-width: 1024px) 260px, 45vw"
            eager
            className="h-full"
          />
        </li>
      ))}
    </ul>
  );
}

function ViewAllOverlay() {
  return (
    <Link
      to={paths.gallery}
      className="absolute inset-0 grid place-items-center bg-black/55 text-white transition-colors hover:bg-black/65 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-ring focus-visible:ring-inset"
    >
      <span className="inline-flex items-center gap-2 rounded-full bg-white/15 px-4 py-2 font-semibold ring-1 ring-white/40 backdrop-blur">
        <Images className="size-4" aria-hidden="true" />
        View All
      </span>
    </Link>
  );
}
