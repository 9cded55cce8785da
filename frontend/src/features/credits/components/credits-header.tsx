import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { BalanceCard } from './balance-card';

interface CreditsHeaderProps {
  /** Where the back button leads, and what it says. */
  back: { to: string; label: string };
  title: string;
  text: string;
  balance: number;
}

/** The top of the screens that sell credits: a way back, the title, and the balance beside it. */
export function CreditsHeader({ back, title, text, balance }: CreditsHeaderProps) {
  return (
    <>
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-3">
          <Link to={back.to}>
            <ArrowLeft aria-hidden="true" />
            {back.label}
          </Link>
        </Button>
      </div>
      <header className="flex flex-col gap-6 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">{title}</h1>
          <p className="max-w-xl text-base text-muted-foreground sm:text-lg">{text}</p>
        </div>
        <BalanceCard balance={balance} className="self-start sm:self-auto" />
      </header>
    </>
  );
}

/** The package list while it loads. */
export function PackagesSkeleton() {
  return (
    <div role="status" aria-label="Loading credit packages" className="grid gap-6 pt-3 md:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2].map((key) => (
        <div key={key} className="h-80 animate-pulse rounded-2xl border bg-muted/50" />
      ))}
    </div>
  );
}

/** The package list with nothing on sale. */
export function NoPackagesOnSale() {
  return (
    <p className="rounded-2xl border border-dashed p-10 text-center text-muted-foreground">
      No credit packages are on sale right now. Please check back soon.
    </p>
  );
}
