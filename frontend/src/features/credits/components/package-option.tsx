import type { CreditPackage } from '@likeness/contracts';
import { Check, Coins, Sparkles, Star, Wand2 } from 'lucide-react';
import { useId } from 'react';
import { cn } from '@/lib/cn';
import { formatCredits, formatPrice, packagePerks } from '../utils/format';

interface PackageOptionProps {
  pkg: CreditPackage;
  /** The radio group's name: the cards are native radios, so arrow keys move between them. */
  name: string;
  selected: boolean;
  disabled?: boolean;
  onSelect: (packageId: string) => void;
  className?: string;
}

/** One package on the credits page: a card that is a radio button named after the package. */
export function PackageOption({ pkg, name, selected, disabled, onSelect, className }: PackageOptionProps) {
  const id = useId();
  const nameId = `${id}-name`;
  const detailsId = `${id}-details`;
  const perks = packagePerks(pkg);

  return (
    <label
      data-selected={selected || undefined}
      className={cn(
        'relative flex h-full cursor-pointer flex-col rounded-2xl border bg-card p-6 text-card-foreground',
        'shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_8px_24px_-12px_hsl(var(--shadow-color)/0.18)]',
        'transition-[border-color,box-shadow,transform] duration-150',
        'has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-ring has-[input:focus-visible]:ring-offset-2 has-[input:focus-visible]:ring-offset-background',
        'has-[input:disabled]:cursor-not-allowed',
        selected
          ? 'border-primary bg-primary/[0.035] shadow-lg shadow-primary/15 ring-1 ring-primary dark:bg-primary/[0.07]'
          : 'hover:-translate-y-0.5 hover:border-primary/50 hover:shadow-md has-[input:disabled]:hover:translate-y-0',
        pkg.popular && !selected && 'border-primary/40',
        className,
      )}
    >
      <input
        type="radio"
        name={name}
        value={pkg.id}
        checked={selected}
        disabled={disabled}
        onChange={() => onSelect(pkg.id)}
        aria-labelledby={nameId}
        aria-describedby={detailsId}
        // Invisible but covering the card: a click anywhere lands on the radio itself.
        className="absolute inset-0 z-10 size-full cursor-pointer appearance-none rounded-2xl opacity-0 disabled:cursor-not-allowed"
      />
      {pkg.popular ? (
        <span className="bg-brand-gradient absolute -top-3 left-6 inline-flex items-center gap-1 rounded-full px-3 py-1 text-xs font-semibold text-white shadow-md shadow-fuchsia-500/25">
          <Star className="size-3 fill-current" aria-hidden="true" />
          Most Popular
        </span>
      ) : null}

      <span className="flex items-start justify-between gap-3">
        <span id={nameId} className="text-lg leading-tight font-semibold tracking-tight">
          {pkg.name}
        </span>
        {selected ? (
          <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-primary px-2.5 py-1 text-xs font-semibold text-primary-foreground">
            <Check className="size-3.5" strokeWidth={3} aria-hidden="true" />
            Selected
          </span>
        ) : (
          <span
            aria-hidden="true"
            className="mt-0.5 size-5 shrink-0 rounded-full border-2 border-input bg-background"
          />
        )}
      </span>

      <span id={detailsId} className="mt-1 flex flex-1 flex-col">
        <span className="text-sm text-muted-foreground">{pkg.description}</span>
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
        </span>
      </span>
    </label>
  );
}
