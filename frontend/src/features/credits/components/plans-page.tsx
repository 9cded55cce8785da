import type { CreditPackage } from '@likeness/contracts';
import { ArrowRight } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { paths, profileUrl } from '@/config/paths';
import { cn } from '@/lib/cn';
import { useCreditPackages } from '@/lib/credit-packages/get-credit-packages';
import { CreditsHeader, NoPackagesOnSale, PackagesSkeleton } from './credits-header';
import { HowCreditsWork } from './how-credits-work';
import { PackageDetails, PopularBadge, packageCardClasses } from './package-details';

/** /plans (the profile's "Buy More Credits"): the credit packages, each with its way to checkout. */
export function PlansPage({ balance }: { balance: number }) {
  const packages = useCreditPackages();

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-8 px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <CreditsHeader
        back={{ to: profileUrl('billing'), label: 'Back to Billing' }}
        title="Credit Plans"
        text="Pay as you go: buy a pack once, use it whenever you like. No subscription, and credits never expire."
        balance={balance}
      />

      <section aria-label="Credit packages">
        {packages.isPending ? (
          <PackagesSkeleton />
        ) : packages.isError ? (
          <LoadError what="the credit packages" onRetry={() => void packages.refetch()} />
        ) : packages.data.length === 0 ? (
          <NoPackagesOnSale />
        ) : (
          <ul className={cn('grid gap-6 pt-3 md:grid-cols-2', packages.data.length >= 3 && 'lg:grid-cols-3')}>
            {packages.data.map((pkg) => (
              <li key={pkg.id}>
                <PlanCard pkg={pkg} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <HowCreditsWork />
    </div>
  );
}

function PlanCard({ pkg }: { pkg: CreditPackage }) {
  const nameId = useId();
  return (
    <article
      aria-labelledby={nameId}
      className={cn(packageCardClasses, pkg.popular && 'border-primary/50 ring-1 ring-primary/30')}
    >
      {pkg.popular ? <PopularBadge /> : null}
      <h2 id={nameId} className="text-lg leading-tight font-semibold tracking-tight">
        {pkg.name}
      </h2>
      <PackageDetails pkg={pkg} />
      <Button asChild variant={pkg.popular ? 'brand' : 'outline'} size="lg" className="mt-6 w-full">
        {/* Named after its package among three alike (the name starts with what it shows). */}
        <Link to={paths.checkout(pkg.id)} aria-label={`Buy Credits: ${pkg.name}`}>
          Buy Credits
          <ArrowRight aria-hidden="true" />
        </Link>
      </Button>
    </article>
  );
}
