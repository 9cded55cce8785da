import { TRAINING_COST, trainModelRequestSchema } from '@likeness/contracts';
import { CircleCheck, FlaskConical, Images, Lock, Sparkles } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { LowCreditsWarning } from '@/components/low-credits-warning';
import { useSchemaForm } from '@/hooks/use-schema-form';
import { serverMessageOr } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import type { ListedModel } from '@/lib/custom-models/get-custom-models';
import { useInferenceConfig } from '@/lib/inference/get-inference-config';
import { useTrainModel } from '../api/train-model';
import { defaultModelNames } from '../utils/default-model-names';
import { isTrainingStatus } from '@/lib/custom-models/model-status';
import { selectionBlocker, trainingMessages, trainingPreCheck } from '../utils/training-checks';
import { selectionStatus, TRAINING_IMAGES } from '../utils/training-selection';
import { StepNumber } from './step-number';

interface TrainModelCardProps {
  username: string;
  credits: number;
  /** The selfies chosen in the picker, in the order they are sent. */
  selectedIds: readonly number[];
  /** The user's models, to know whether one is training (undefined while they load). */
  models: readonly ListedModel[] | undefined;
  /** After a training started: the page clears the selection and refreshes the balance. */
  onTrainingStarted: () => void;
}

const fields = ['modelName', 'triggerWord'] as const;
const namesSchema = trainModelRequestSchema.pick({ modelName: true, triggerWord: true });

function fail(description: string): void {
  toast({ variant: 'destructive', title: 'Training failed', description });
}

/** "Train Custom Model": name the model and its trigger word, then train it on the selected selfies. */
export function TrainModelCard({ username, credits, selectedIds, models, onTrainingStarted }: TrainModelCardProps) {
  const headingId = useId();
  const blockerId = useId();
  const lowCreditsId = useId();
  const [names, setNames] = useState(() => defaultModelNames(username, new Date()));
  const training = useTrainModel();
  const config = useInferenceConfig();
  const activeModel = models?.find((model) => isTrainingStatus(model.status));
  const locked = activeModel !== undefined;
  const busy = locked || training.isPending;
  const lowOnCredits = credits < TRAINING_COST;
  const blocker = selectionBlocker(selectedIds.length) ?? (names.triggerWord.trim() ? null : 'Enter a trigger word');
  // Looks disabled and says why, yet stays focusable so the reason is found (aria-disabled, not disabled).
  const blocked = blocker !== null || lowOnCredits;

  const { errors, clearError, handleSubmit } = useSchemaForm({
    schema: namesSchema,
    fields,
    onValid: async (values) => {
      await training.mutateAsync({ ...values, referenceImageIds: [...selectedIds], trainingType: 'flux-lora' });
      toast({
        title: 'Training started!',
        description: 'Your custom model is now training. This may take 10-20 minutes.',
      });
      // The next model gets fresh names (these are taken now).
      setNames(defaultModelNames(username, new Date()));
      onTrainingStarted();
    },
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || blocked) return;
    const problem = trainingPreCheck({ modelName: names.modelName, selectedCount: selectedIds.length, credits });
    if (problem) return fail(problem);
    await handleSubmit(event).catch((error: unknown) => fail(serverMessageOr(error, trainingMessages.startFailed)));
  }

  function edit(field: (typeof fields)[number], value: string) {
    setNames((current) => ({ ...current, [field]: value }));
    clearError(field);
  }

  return (
    <Card aria-labelledby={headingId} role="region">
      <CardHeader className="pb-4">
        <div className="flex items-center justify-between gap-3">
          <div className="flex items-center gap-3">
            <StepNumber step={3} />
            <CardTitle as="h2" id={headingId}>
              Train Custom Model
            </CardTitle>
          </div>
          <span className="shrink-0 rounded-full bg-primary/10 px-2.5 py-0.5 text-xs font-medium text-primary tabular-nums">
            {TRAINING_COST} credits
          </span>
        </div>
        <CardDescription>
          Your model learns your likeness from the selfies you select. Failed trainings cost nothing.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 lg:grid-cols-2 lg:gap-8">
        <div className="flex flex-col gap-4">
          <SelectionSummary count={selectedIds.length} />
          {config.data?.provider === 'local' ? <LocalModeNotice /> : null}
        </div>

        <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid content-start gap-4">
          <FormField
            id="train-model-name"
            name="modelName"
            label="Model name"
            autoComplete="off"
            spellCheck={false}
            value={names.modelName}
            onChange={(event) => edit('modelName', event.target.value)}
            disabled={busy}
            error={errors.modelName}
            hint="3-30 letters, numbers, spaces, hyphens or underscores."
          />
          <FormField
            id="train-trigger-word"
            name="triggerWord"
            label="Trigger word"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={names.triggerWord}
            onChange={(event) => edit('triggerWord', event.target.value)}
            disabled={busy}
            error={errors.triggerWord}
            hint="Put this word in a prompt to bring in your likeness."
          />

          {activeModel ? <TrainingLockNote model={activeModel} /> : null}

          <Button
            type="submit"
            variant="brand"
            size="lg"
            className="mt-1 w-full aria-disabled:cursor-not-allowed aria-disabled:opacity-60 aria-disabled:shadow-none"
            disabled={busy}
            aria-disabled={blocked ? true : undefined}
            aria-describedby={describedBy(blocker && blockerId, lowOnCredits && lowCreditsId)}
          >
            {training.isPending ? <Spinner /> : <Sparkles aria-hidden="true" />}
            {training.isPending ? 'Starting training...' : `Start Training (${TRAINING_COST} credits)`}
          </Button>

          {blocker && !busy ? (
            <p id={blockerId} className="-mt-1 flex items-center justify-center gap-1.5 text-sm text-muted-foreground">
              <Lock className="size-3.5 shrink-0" aria-hidden="true" />
              {blocker}
            </p>
          ) : null}

          {lowOnCredits ? (
            <LowCreditsWarning
              id={lowCreditsId}
              message={trainingMessages.lowCreditsWarning}
              credits={credits}
              className="-mt-1"
            />
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}

function describedBy(...ids: (string | false | null)[]): string | undefined {
  return ids.filter(Boolean).join(' ') || undefined;
}

/** How many selfies the picker holds for this training. */
function SelectionSummary({ count }: { count: number }) {
  const status = selectionStatus(count);
  const ready = status === 'ready';
  const hint =
    status === 'too-few'
      ? `Choose ${TRAINING_IMAGES.min}-${TRAINING_IMAGES.max} in Image Selection`
      : status === 'too-many'
        ? `At most ${TRAINING_IMAGES.max} can be used`
        : `Within the ${TRAINING_IMAGES.min}-${TRAINING_IMAGES.max} a training needs`;
  return (
    <div
      className={cn(
        'flex items-center gap-3 rounded-xl border px-4 py-3',
        ready ? 'border-emerald-200 bg-emerald-50 dark:border-emerald-900 dark:bg-emerald-950/30' : 'bg-muted/40',
      )}
    >
      <span
        className={cn(
          'grid size-9 shrink-0 place-items-center rounded-lg',
          ready ? 'bg-emerald-500/15 text-emerald-700 dark:text-emerald-300' : 'bg-primary/10 text-primary',
        )}
      >
        {ready ? (
          <CircleCheck className="size-[18px]" aria-hidden="true" />
        ) : (
          <Images className="size-[18px]" aria-hidden="true" />
        )}
      </span>
      <div className="flex min-w-0 flex-col">
        <p className="font-medium tabular-nums" aria-live="polite">
          {count} {count === 1 ? 'selfie' : 'selfies'} selected
        </p>
        <p className={cn('text-xs', status === 'too-many' ? 'text-destructive' : 'text-muted-foreground')}>{hint}</p>
      </div>
    </div>
  );
}

/** Why training can't start: SPEC §4 allows one training at a time. */
function TrainingLockNote({ model }: { model: ListedModel }) {
  return (
    <div
      role="status"
      className="flex items-start gap-2.5 rounded-xl border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900 dark:border-blue-900 dark:bg-blue-950/40 dark:text-blue-100"
    >
      <Spinner className="mt-0.5 shrink-0 text-blue-600 dark:text-blue-300" />
      <p>
        <span className="font-medium">“{model.modelName}” is training.</span> You can train another model once it
        finishes.
      </p>
    </div>
  );
}

/** The local provider makes previews, not AI portraits: say so plainly (issue 5). */
function LocalModeNotice() {
  return (
    <div className="flex items-start gap-2.5 rounded-xl border border-sky-200 bg-sky-50 p-3 text-sm leading-relaxed text-sky-950 dark:border-sky-900 dark:bg-sky-950/40 dark:text-sky-50">
      <FlaskConical className="mt-0.5 size-4 shrink-0 text-sky-600 dark:text-sky-300" aria-hidden="true" />
      <p>
        <span className="font-semibold">Local preview mode:</span> trainings finish in seconds and generated images are
        previews made from your selfies, not AI portraits.
      </p>
    </div>
  );
}
