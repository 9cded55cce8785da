import { GENERATION_COST, NUM_OUTPUTS } from '@likeness/contracts';
import { useId } from 'react';
import { cn } from '@/lib/cn';

const choices = Array.from({ length: NUM_OUTPUTS.max - NUM_OUTPUTS.min + 1 }, (_, index) => NUM_OUTPUTS.min + index);

interface NumOutputsPickerProps {
  value: number;
  onChange: (value: number) => void;
  disabled?: boolean;
}

/** SPEC §2: how many images one run makes, 1 to 4; the run costs the same either way (SPEC §9). */
export function NumOutputsPicker({ value, onChange, disabled }: NumOutputsPickerProps) {
  const labelId = useId();
  const hintId = useId();
  return (
    <div className="grid gap-2">
      <span id={labelId} className="text-sm leading-none font-medium">
        Number of images
      </span>
      <div role="group" aria-labelledby={labelId} aria-describedby={hintId} className="grid grid-cols-4 gap-2">
        {choices.map((choice) => {
          const pressed = choice === value;
          return (
            <button
              key={choice}
              type="button"
              aria-pressed={pressed}
              disabled={disabled}
              onClick={() => onChange(choice)}
              className={cn(
                'h-10 rounded-lg border text-sm font-semibold tabular-nums transition-[color,background-color,border-color] duration-150',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
                'disabled:cursor-not-allowed disabled:opacity-60',
                pressed
                  ? 'border-primary bg-primary text-primary-foreground shadow-sm'
                  : 'border-input bg-background hover:bg-accent hover:text-accent-foreground',
              )}
            >
              {choice}
            </button>
          );
        })}
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        {NUM_OUTPUTS.min} to {NUM_OUTPUTS.max} images per run, all for the same {GENERATION_COST} credits.
      </p>
    </div>
  );
}
