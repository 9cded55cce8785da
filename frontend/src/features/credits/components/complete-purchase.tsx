import type { CreatePaymentIntentResponse } from '@likeness/contracts';
import { Coins, ShieldCheck, Sparkles, Wand2 } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCredits, packagePerks } from '@/lib/credit-packages/format-package';
import { formatAmount } from '../utils/format';
import { PaymentForm } from './payment-form';

interface CompletePurchaseProps {
  intent: CreatePaymentIntentResponse;
  /** The way back, e.g. a "Back to Packages" button. */
  backAction: ReactNode;
}

/** "Complete Your Purchase": the package summary beside the payment form (credits page and checkout). */
export function CompletePurchase({ intent, backAction }: CompletePurchaseProps) {
  const { packageDetails: pkg } = intent;
  const perks = packagePerks(pkg);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The view replaces the package grid: move focus (and screen readers) to its heading.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <div className="flex flex-col gap-6">
      <div>{backAction}</div>
      <header className="flex flex-col gap-2">
        <h1 ref={headingRef} tabIndex={-1} className="text-3xl font-semibold tracking-tight outline-none sm:text-4xl">
          Complete Your Purchase
        </h1>
        <p className="text-base text-muted-foreground">
          You are buying the <span className="font-medium text-foreground">{pkg.name}</span>.
        </p>
      </header>

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card className="relative overflow-hidden">
          <div aria-hidden="true" className="bg-brand-gradient absolute inset-x-0 top-0 h-1" />
          <CardHeader className="pb-4">
            <CardDescription className="font-medium">Order summary</CardDescription>
            <CardTitle as="h2" className="text-2xl">
              {pkg.name}
            </CardTitle>
            <p className="text-sm text-muted-foreground">{pkg.description}</p>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-3 text-sm">
              <li className="flex items-center gap-2.5 font-medium">
                <Coins className="size-4 shrink-0 text-primary" aria-hidden="true" />
                {formatCredits(pkg.credits)}
                <span className="rounded-full bg-primary/10 px-2.5 py-0.5 text-xs font-medium text-primary">
                  {pkg.value}
                </span>
              </li>
              <li className="flex items-center gap-2.5">
                <Sparkles className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                {perks.generations}
              </li>
              <li className="flex items-center gap-2.5">
                <Wand2 className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                {perks.trainings}
              </li>
            </ul>
            <dl className="mt-6 flex items-baseline justify-between border-t pt-4">
              <dt className="font-medium">Total</dt>
              <dd className="text-2xl font-semibold tabular-nums">{formatAmount(pkg.price)}</dd>
            </dl>
            <p className="mt-4 flex items-start gap-2 text-xs leading-relaxed text-muted-foreground">
              <ShieldCheck
                className="mt-px size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
                aria-hidden="true"
              />
              One-time payment, no subscription. Credits never expire and are added as soon as the payment is confirmed.
            </p>
          </CardContent>
        </Card>

        <Card>
          <CardHeader className="pb-4">
            <CardTitle as="h2">Payment details</CardTitle>
            <CardDescription>Enter your card to finish the purchase.</CardDescription>
          </CardHeader>
          <CardContent>
            <PaymentForm
              paymentIntentId={intent.paymentIntentId}
              clientSecret={intent.clientSecret}
              amount={pkg.price}
            />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
