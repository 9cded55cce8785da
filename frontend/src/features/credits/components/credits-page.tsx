import type { CreatePaymentIntentResponse, CreditPackage } from '@likeness/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, ArrowRight } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/config/paths';
import { serverMessageOr } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useCreatePaymentIntent } from '../api/create-payment-intent';
import { useCreditPackages } from '@/lib/credit-packages/get-credit-packages';
import { paymentConfigQueryOptions } from '../api/get-payment-config';
import { formatCredits, formatPrice } from '@/lib/credit-packages/format-package';
import { CompletePurchase } from './complete-purchase';
import { CreditsHeader, NoPackagesOnSale, PackagesSkeleton } from './credits-header';
import { HowCreditsWork } from './how-credits-work';
import { PackageOption } from './package-option';

/** /credits: pick a package, then pay for it without leaving the page. */
export function CreditsPage({ balance }: { balance: number }) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [intent, setIntent] = useState<CreatePaymentIntentResponse | null>(null);
  const packages = useCreditPackages();
  const createIntent = useCreatePaymentIntent();
  const queryClient = useQueryClient();
  const selected = packages.data?.find((pkg) => pkg.id === selectedId) ?? null;

  function handleContinue() {
    if (createIntent.isPending) return;
    if (!selected) {
      toast({ title: 'No Package Selected', description: 'Please select a credit package to continue.' });
      return;
    }
    // The payment form needs the provider settings next: fetch them alongside the intent.
    void queryClient.prefetchQuery(paymentConfigQueryOptions());
    createIntent.mutate(
      { packageId: selected.id },
      {
        onSuccess: setIntent,
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Payment Setup Failed',
            description: serverMessageOr(error, 'Could not initialize payment. Please try again.'),
          }),
      },
    );
  }

  function backToPackages() {
    setIntent(null);
    createIntent.reset();
  }

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      {intent ? (
        <CompletePurchase
          intent={intent}
          backAction={
            <Button variant="ghost" size="sm" className="-ml-3" onClick={backToPackages}>
              <ArrowLeft aria-hidden="true" />
              Back to Packages
            </Button>
          }
        />
      ) : (
        <div className="flex flex-col gap-8">
          <CreditsHeader
            back={{ to: paths.dashboard, label: 'Back to Dashboard' }}
            title="Buy Credits"
            text="Pick a package and pay once. No subscription, and your credits never expire."
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
              <>
                <PackageGrid
                  packages={packages.data}
                  selectedId={selectedId}
                  disabled={createIntent.isPending}
                  onSelect={setSelectedId}
                />
                <ContinueBar selected={selected} pending={createIntent.isPending} onContinue={handleContinue} />
              </>
            )}
          </section>

          <HowCreditsWork />
        </div>
      )}
    </div>
  );
}

/** SPEC §2: one column on phones, two from md, four on large screens (fewer packages get fewer, wider columns). */
const largeColumns: Record<number, string> = { 1: 'lg:grid-cols-1', 2: 'lg:grid-cols-2', 3: 'lg:grid-cols-3' };

function PackageGrid({
  packages,
  selectedId,
  disabled,
  onSelect,
}: {
  packages: CreditPackage[];
  selectedId: string | null;
  disabled: boolean;
  onSelect: (packageId: string) => void;
}) {
  const name = useId();
  const count = packages.length;
  return (
    <fieldset className="min-w-0">
      <legend className="sr-only">Choose a credit package</legend>
      <div
        className={cn(
          'grid gap-6 pt-3 md:grid-cols-2',
          largeColumns[count] ?? 'lg:grid-cols-4',
          count < 3 && 'mx-auto max-w-3xl',
        )}
      >
        {packages.map((pkg, index) => (
          <PackageOption
            key={pkg.id}
            pkg={pkg}
            name={name}
            selected={pkg.id === selectedId}
            disabled={disabled}
            onSelect={onSelect}
            // An odd last card sits centred on the two-column rows instead of hanging at the left.
            className={cn(
              count % 2 === 1 &&
                index === count - 1 &&
                'md:max-lg:col-span-2 md:max-lg:mx-auto md:max-lg:w-[calc(50%-0.75rem)]',
            )}
          />
        ))}
      </div>
    </fieldset>
  );
}

function ContinueBar({
  selected,
  pending,
  onContinue,
}: {
  selected: CreditPackage | null;
  pending: boolean;
  onContinue: () => void;
}) {
  return (
    // On phones a solid strip flush on the bottom navigation, edge to edge, so nothing shows between
    // or around them; from md a floating card.
    <div className="sticky bottom-[calc(4rem+1px+env(safe-area-inset-bottom))] z-30 -mx-4 mt-8 sm:-mx-6 md:bottom-6 md:mx-0">
      <div className="flex items-center justify-between gap-3 border-t bg-background px-4 py-3 shadow-[0_-8px_24px_-12px_hsl(var(--shadow-color)/0.25)] sm:gap-4 sm:px-6 md:rounded-2xl md:border md:bg-card md:p-4 md:pl-6 md:shadow-lg md:shadow-black/5">
        <p aria-live="polite" className="min-w-0 text-sm">
          {selected ? (
            <>
              <span className="block font-semibold sm:inline">{selected.name}</span>
              <span className="hidden text-muted-foreground sm:inline"> · </span>
              <span className="block text-muted-foreground sm:inline">
                {formatCredits(selected.credits)} for {formatPrice(selected.price)}
              </span>
            </>
          ) : (
            <span className="text-muted-foreground">Select a package to continue.</span>
          )}
        </p>
        <Button
          variant="brand"
          size="lg"
          // Still focusable and clickable while nothing is selected, so pressing it can say why.
          aria-disabled={selected ? undefined : true}
          disabled={pending}
          className="px-4 aria-disabled:opacity-60 aria-disabled:shadow-none sm:px-6"
          onClick={onContinue}
        >
          {pending ? <Spinner /> : null}
          Continue to Payment
          {pending ? null : <ArrowRight aria-hidden="true" className="hidden sm:block" />}
        </Button>
      </div>
    </div>
  );
}
