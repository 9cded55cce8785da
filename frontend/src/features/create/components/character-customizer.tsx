import { Dices, Eraser, Palette, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import {
  CATEGORY_LABELS,
  CUSTOMIZER_CATEGORIES,
  CUSTOMIZER_OPTIONS,
  type CustomizerCategory,
  type CustomizerSelection,
} from '../data/customizer-options';
import { CollapsibleSection } from './collapsible-section';

interface CharacterCustomizerProps {
  selection: CustomizerSelection;
  onChange: (selection: CustomizerSelection) => void;
  onRandomLook: () => void;
  disabled?: boolean;
}

/**
 * SPEC §2: pick at most one option per category; the page builds the prompt from the choice.
 * "Random Look" fills every category, "Clear All" empties them, each chip removes one.
 */
export function CharacterCustomizer({ selection, onChange, onRandomLook, disabled }: CharacterCustomizerProps) {
  const chosen = CUSTOMIZER_CATEGORIES.filter((category) => selection[category]);

  function set(category: CustomizerCategory, option: string) {
    const next = { ...selection };
    if (option) next[category] = option;
    else delete next[category];
    onChange(next);
  }

  return (
    <CollapsibleSection
      data-tour="character-customizer"
      title="Character Customizer"
      icon={Palette}
      defaultOpen
      summary={
        chosen.length === 0
          ? 'Build a prompt from a look, a setting and a style'
          : `${chosen.length} of ${CUSTOMIZER_CATEGORIES.length} features chosen`
      }
      actions={
        <>
          <Button type="button" variant="outline" size="sm" onClick={onRandomLook} disabled={disabled}>
            <Dices aria-hidden="true" />
            Random Look
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => onChange({})}
            disabled={disabled || chosen.length === 0}
          >
            <Eraser aria-hidden="true" />
            Clear All
          </Button>
        </>
      }
    >
      {chosen.length > 0 ? (
        <ul aria-label="Chosen features" className="mb-4 flex flex-wrap gap-1.5">
          {chosen.map((category) => (
            <li key={category} className="max-w-full">
              <span className="inline-flex max-w-full items-center gap-1 rounded-full border border-primary/30 bg-primary/10 py-0.5 pr-0.5 pl-2.5 text-xs font-medium text-foreground">
                <span className="text-muted-foreground">{CATEGORY_LABELS[category]}:</span>
                <span className="truncate">{selection[category]}</span>
                <button
                  type="button"
                  disabled={disabled}
                  aria-label={`Remove ${CATEGORY_LABELS[category]}: ${selection[category]}`}
                  onClick={() => set(category, '')}
                  className="grid size-5 shrink-0 place-items-center rounded-full text-muted-foreground transition-colors hover:bg-primary/15 hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}

      <div className="grid grid-cols-1 gap-x-4 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
        {CUSTOMIZER_CATEGORIES.map((category) => {
          const id = `customizer-${category}`;
          return (
            <div key={category} className="grid min-w-0 gap-1.5">
              <Label htmlFor={id} className="text-xs text-muted-foreground">
                {CATEGORY_LABELS[category]}
              </Label>
              <NativeSelect
                id={id}
                className="w-full"
                value={selection[category] ?? ''}
                onChange={(event) => set(category, event.target.value)}
                disabled={disabled}
              >
                <option value="">Any</option>
                {CUSTOMIZER_OPTIONS[category].map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </NativeSelect>
            </div>
          );
        })}
      </div>
    </CollapsibleSection>
  );
}
