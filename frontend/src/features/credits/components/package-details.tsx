import { type CreditPackage, GENERATION_PRIORITY } from '@likeness/contracts';
import { Coins, Sparkles, Star, Wand2, Zap } from 'lucide-react';
import { formatCredits, formatPrice, packagePerks } from '@/lib/credit-packages/format-package';

/**
 * What a package is: description, price, credits, value and what they buy (SPEC §2), as phrasing
 * content. Its four rows join the card's grid (`contents`), so on a row of cards each row lines up.
 */
export function PackageDetails({ pkg, id }: { pkg: CreditPackage; id?: string }) {
  const perks = packagePerks(pkg);
  return (
    <span id={id} className="mt-1 flex flex-1 flex-col lg:contents">
      <span className="text-sm text-muted-foreground lg:mt-1">{pkg.description}</span>
      <span className="mt-5 flex items-baseline gap-1.5">
        <span className="text-4xl font-semibold tracking-tight tabular-nums">{formatPrice(pkg.price)}</span>
        <span className="text-sm text-muted-foreground">one-time</span>
      </span>
      <span className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2">
        <span className="inline-flex items-center gap-1.5 font-semibold">
          <Coins className="size-4 text-primary" aria-hidden="true" />
          {formatCredits(pkg.credits)}
        </span>
        <span className="rounded-full bg-primary/10 px-2.5 py-0.5 text-xs font-medium text-primary">{pkg.value}</span>
      </span>
      <span className="mt-5 grid gap-2.5 border-t pt-5 text-sm">
        <span className="flex items-center gap-2.5">
          <Sparkles className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          {perks.generations}
        </span>
        <span className="flex items-center gap-2.5">
          <Wand2 className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          {perks.trainings}
        </span>
        {pkg.id === GENERATION_PRIORITY.packageId && (
          <span className="flex items-center gap-2.5">
            <Zap className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            {PRIORITY_NOTE}
          </span>
        )}
      </span>
    </span>
  );
}

/** How long the Professional Pack's "priority generation speed" lasts: the rule generation applies. */
export const PRIORITY_NOTE = `Priority generation for ${GENERATION_PRIORITY.windowDays} days after purchase`;

/** SPEC §2: the "Most Popular" badge on the card's top edge. */
export function PopularBadge() {
  return (
    <span className="bg-brand-gradient absolute -top-3 left-6 inline-flex items-center gap-1 rounded-full px-3 py-1 text-xs font-semibold text-white shadow-md shadow-fuchsia-500/25">
      <Star className="size-3 fill-current" aria-hidden="true" />
      Most Popular
    </span>
  );
}

/** The card surface both the package picker and the plans page draw. */
export const packageCardClasses =
  'relative flex h-full flex-col rounded-2xl border bg-card p-6 text-card-foreground shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_8px_24px_-12px_hsl(var(--shadow-color)/0.18)]';

/**
 * On large screens a card in a row of cards is a subgrid of the row's five tracks (name,
 * description, price, credits, perks), so the same row of each card starts at the same height.
 */
export const packageCardRowsClasses = 'lg:row-span-5 lg:grid lg:grid-rows-subgrid lg:gap-y-0';
