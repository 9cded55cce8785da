import type { UseQueryResult } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { Link } from 'react-router';
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { NativeSelect } from '@/components/ui/native-select';
import { paths } from '@/config/paths';
import { hasTrainingModel, type ListedModel } from '@/lib/custom-models/get-custom-models';

interface ModelPickerProps {
  /** All of the user's models, to know which hint applies. */
  models: UseQueryResult<ListedModel[]>;
  /** The ones that can generate: completed (or ready) with a trigger word. */
  usable: readonly ListedModel[];
  value: number | null;
  onChange: (modelId: number) => void;
  disabled?: boolean;
}

const linkClass =
  'rounded-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** SPEC §2: the custom-model dropdown, with a hint while models train or when there are none. */
export function ModelPicker({ models, usable, value, onChange, disabled }: ModelPickerProps) {
  if (models.isError) return <LoadError compact what="your custom models" onRetry={() => void models.refetch()} />;
  const hint = modelHint(models.data, usable.length);
  return (
    <div className="grid gap-2">
      <Label htmlFor="create-model">Custom model</Label>
      <NativeSelect
        id="create-model"
        className="w-full"
        value={value === null ? '' : String(value)}
        onChange={(event) => onChange(Number(event.target.value))}
        disabled={disabled || usable.length === 0}
        aria-describedby={hint ? 'create-model-hint' : undefined}
      >
        <option value="" disabled>
          {models.isPending ? 'Loading your models...' : usable.length === 0 ? 'No models ready' : 'Select a model'}
        </option>
        {usable.map((model) => (
          <option key={model.id} value={model.id}>
            {model.modelName} ({model.triggerWord})
          </option>
        ))}
      </NativeSelect>
      {hint ? (
        <p id="create-model-hint" className="flex items-start gap-1.5 text-sm text-muted-foreground">
          <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
          <span>{hint}</span>
        </p>
      ) : null}
    </div>
  );
}

function modelHint(models: readonly ListedModel[] | undefined, usableCount: number) {
  if (!models) return null;
  if (hasTrainingModel(models)) {
    return 'Your custom models are still training. Only completed models appear in this list.';
  }
  if (models.length === 0) {
    return (
      <>
        You don&apos;t have any custom models yet. Train a model in the{' '}
        <Link to={paths.models} className={linkClass}>
          Custom Models
        </Link>{' '}
        section first.
      </>
    );
  }
  if (usableCount === 0) {
    return (
      <>
        None of your models finished training. Train a model in the{' '}
        <Link to={paths.models} className={linkClass}>
          Custom Models
        </Link>{' '}
        section first.
      </>
    );
  }
  return null;
}
