import { TRAINING_COST, GENERATION_COST, type CreditPackage } from '@likeness/contracts';
import { Check, Coins, Star } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { formatCredits, formatPrice, packagePerks } from '@/lib/credit-packages/format-package';
import { useCreditPackages } from '@/lib/credit-packages/get-credit-packages';
import { SectionHeading, sectionClasses } from './section-heading';

const cardClasses =
  'relative flex h-full flex-col rounded-2xl border bg-card p-6 text-card-foreground shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_8px_24px_-12px_hsl(var(--shadow-color)/0.18)]';

/** SPEC §2 Pricing: the packs on sale (from the server, never written here), each leading to /credits. */
export function PricingSection() {
  const packages = useCreditPackages();

  return (
    <section id="pricing" aria-labelledby="pricing-title" className={sectionClasses}>
      <SectionHeading id="pricing-title" eyebrow="Pricing" title="Pay only for what you create">
        Prepaid credits with no monthly fee. Training a model costs {TRAINING_COST} credits, each generation{' '}
        {GENERATION_COST}. Credits never expire.
      </SectionHeading>
      <div className="mt-14">
        {packages.isError ? (
          <LoadError what="the credit packs" onRetry={() => void packages.refetch()} />
        ) : (
          <ul className="grid gap-8 md:grid-cols-3 md:gap-5" aria-busy={packages.isPending}>
            {packages.data
              ? packages.data.map((pkg) => (
                  <li key={pkg.id}>
                    <PackCard pkg={pkg} />
                  </li>
                ))
              : [0, 1, 2].map((slot) => (
                  <li key={slot} aria-hidden="true" className={cn(cardClasses, 'min-h-[26rem] animate-pulse')} />
                ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function PackCard({ pkg }: { pkg: CreditPackage }) {
  const perks = packagePerks(pkg);
  return (
    <article
      aria-labelledby={`pack-${pkg.id}`}
      className={cn(cardClasses, 'min-h-[26rem]', pkg.popular && 'border-primary/60 ring-1 ring-primary/40')}
    >
      {pkg.popular ? (
        <p className="bg-brand-gradient absolute -top-3 left-6 inline-flex items-center gap-1 rounded-full px-3 py-1 text-xs font-semibold text-white shadow-md shadow-fuchsia-500/25">
          <Star className="size-3 fill-current" aria-hidden="true" />
          Best Value
        </p>
      ) : null}
      <h3 id={`pack-${pkg.id}`} className="text-lg font-semibold tracking-tight">
        {pkg.name}
      </h3>
      <p className="mt-1 text-sm text-muted-foreground">{pkg.description}</p>
      <p className="mt-5 flex items-baseline gap-1.5">
        <span className="text-4xl font-semibold tracking-tight tabular-nums">{formatPrice(pkg.price)}</span>
        <span className="text-sm text-muted-foreground">one-time</span>
      </p>
      <p className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2">
        <span className="inline-flex items-center gap-1.5 font-semibold">
          <Coins className="size-4 text-primary" aria-hidden="true" />
          {formatCredits(pkg.credits)}
        </span>
        <span className="rounded-full bg-primary/10 px-2.5 py-0.5 text-xs font-medium text-primary">{pkg.value}</span>
      </p>
      <ul className="mt-5 grid gap-2.5 border-t pt-5 text-sm">
        {[perks.generations, perks.trainings, 'Credits never expire'].map((perk) => (
          <li key={perk} className="flex items-center gap-2.5">
            <Check className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            {perk}
          </li>
        ))}
      </ul>
      <Button asChild variant={pkg.popular ? 'brand' : 'outline'} className="mt-auto w-full">
        <Link to={paths.credits} aria-label={`Buy Credits: ${pkg.name}`}>
          Buy Credits
        </Link>
      </Button>
    </article>
  );
}
