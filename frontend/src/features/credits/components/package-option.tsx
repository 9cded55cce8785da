import type { CreditPackage } from '@likeness/contracts';
import { Check } from 'lucide-react';
import { useId } from 'react';
import { cn } from '@/lib/cn';
import { PackageDetails, PopularBadge, packageCardClasses, packageCardRowsClasses } from './package-details';

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

  return (
    <label
      data-selected={selected || undefined}
      className={cn(
        packageCardClasses,
        packageCardRowsClasses,
        'cursor-pointer transition-[border-color,box-shadow,transform] duration-150',
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
      {pkg.popular ? <PopularBadge /> : null}

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

      <PackageDetails pkg={pkg} id={detailsId} />
    </label>
  );
}
