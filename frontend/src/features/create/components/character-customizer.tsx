import { Dices, Eraser, Palette, X } from 'lucide-react';
import { useId } from 'react';
import { cn } from '@/lib/cn';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import {
  CATEGORY_LABELS,
  CUSTOMIZER_CATEGORIES,
  CUSTOMIZER_OPTIONS,
  type CustomizerCategory,
  type CustomizerSelection,
  personOf,
} from '../data/customizer-options';
import { LOOK_PRESETS, applyPreset, isPresetApplied, type LookPreset } from '../data/look-presets';
import { CollapsibleSection } from './collapsible-section';

interface CharacterCustomizerProps {
  selection: CustomizerSelection;
  onChange: (selection: CustomizerSelection) => void;
  onRandomLook: () => void;
  disabled?: boolean;
}

/**
 * SPEC §2: pick at most one option per category; the page builds the prompt from the choice.
 * A row of presets starts a look in one tap; "Random Look" picks a new outfit, setting, light,
 * style and framing; neither changes who the person is (gender, ethnicity, age, hair, eyes).
 * "Clear All" empties every category, each chip removes one.
 */
export function CharacterCustomizer({ selection, onChange, onRandomLook, disabled }: CharacterCustomizerProps) {
  const chosen = CUSTOMIZER_CATEGORIES.filter((category) => selection[category]);
  const person = personOf(selection);

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
      <PresetRow
        selection={selection}
        person={person}
        onPick={(preset) => onChange(applyPreset(preset, person))}
        disabled={disabled}
      />

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

/** A wash of colour per preset, so the row reads as pictures of moods rather than a list of words. */
const PRESET_ART: Record<string, string> = {
  headshot: 'from-slate-700 via-slate-500 to-sky-300',
  'golden-hour': 'from-orange-500 via-amber-400 to-rose-400',
  'city-nights': 'from-fuchsia-700 via-violet-600 to-cyan-400',
  'fantasy-hero': 'from-emerald-800 via-teal-600 to-lime-300',
  watercolor: 'from-sky-300 via-pink-200 to-amber-100',
  'film-noir': 'from-neutral-900 via-neutral-600 to-neutral-300',
};

function PresetRow({
  selection,
  person,
  onPick,
  disabled,
}: {
  selection: CustomizerSelection;
  person: CustomizerSelection;
  onPick: (preset: LookPreset) => void;
  disabled?: boolean;
}) {
  const labelId = useId();
  return (
    <div className="mb-5">
      <p id={labelId} className="mb-2 text-xs font-medium text-muted-foreground">
        Start from a style
      </p>
      <ul
        aria-labelledby={labelId}
        className="-mx-1 flex snap-x gap-2.5 overflow-x-auto px-1 pb-1 sm:grid sm:grid-cols-3 sm:overflow-visible"
      >
        {LOOK_PRESETS.map((preset) => {
          const applied = isPresetApplied(preset, selection, person);
          return (
            <li key={preset.id} className="w-32 shrink-0 snap-start sm:w-auto">
              <button
                type="button"
                aria-pressed={applied}
                disabled={disabled}
                onClick={() => onPick(preset)}
                className={cn(
                  'group flex h-full w-full flex-col overflow-hidden rounded-xl border bg-card text-left shadow-xs transition',
                  'hover:border-primary/50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  'disabled:cursor-not-allowed disabled:opacity-60',
                  applied && 'border-primary ring-2 ring-primary/40',
                )}
              >
                <span
                  aria-hidden="true"
                  className={cn(
                    'block h-14 w-full bg-gradient-to-br',
                    PRESET_ART[preset.id] ?? 'from-primary to-fuchsia-400',
                  )}
                />
                <span className="flex flex-col gap-0.5 px-2.5 py-2">
                  <span className="text-sm leading-tight font-medium">{preset.name}</span>
                  <span className="text-xs leading-tight text-muted-foreground">{preset.blurb}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
