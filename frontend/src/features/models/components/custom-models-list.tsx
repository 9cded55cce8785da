import { Boxes } from 'lucide-react';
import { useId } from 'react';
import { LoadError } from '@/components/ui/load-error';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { hasTrainingModel, type ListedModel } from '@/lib/custom-models/get-custom-models';
import { CustomModelItem } from './custom-model-item';

interface CustomModelsListProps {
  models: { data: ListedModel[] | undefined; isPending: boolean; isError: boolean; refetch: () => unknown };
}

const listClasses = 'grid gap-3 sm:grid-cols-2 lg:grid-cols-3';

/** "Your Custom Models": every model the user trained or is training, the newest first. */
export function CustomModelsList({ models }: CustomModelsListProps) {
  const headingId = useId();
  const listed = models.data ?? [];

  return (
    <Card aria-labelledby={headingId} role="region">
      <CardHeader className="pb-4">
        <div className="flex items-center justify-between gap-3">
          <CardTitle as="h2" id={headingId}>
            Your Custom Models
          </CardTitle>
          {listed.length > 0 ? (
            <span className="shrink-0 rounded-full bg-muted px-2.5 py-0.5 text-xs font-medium text-muted-foreground tabular-nums">
              {listed.length} {listed.length === 1 ? 'model' : 'models'}
            </span>
          ) : null}
        </div>
        <CardDescription>
          {hasTrainingModel(listed)
            ? 'Statuses update on their own while a model trains; you can leave this page and come back.'
            : 'Put a ready model’s trigger word in your prompts to generate avatars of yourself.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {models.isPending ? (
          <ul role="status" aria-label="Loading your models..." className={listClasses}>
            {Array.from({ length: 3 }, (_, index) => (
              <li key={index} className="flex flex-col gap-3 rounded-xl border p-4">
                <div className="h-4 w-2/3 animate-pulse rounded bg-muted" />
                <div className="h-3 w-1/3 animate-pulse rounded bg-muted" />
                <div className="h-6 w-32 animate-pulse rounded-full bg-muted" />
                <div className="h-11 animate-pulse rounded-lg bg-muted" />
              </li>
            ))}
          </ul>
        ) : models.isError ? (
          <LoadError what="your models" onRetry={() => void models.refetch()} compact />
        ) : listed.length === 0 ? (
          <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-10 text-center">
            <span className="grid size-12 place-items-center rounded-2xl bg-primary/10 text-primary">
              <Boxes className="size-6" aria-hidden="true" />
            </span>
            <p className="font-medium">No custom models yet</p>
            <p className="max-w-md text-sm text-muted-foreground">
              Upload your selfies, select 12-20 of them and start a training. Your model shows up here, and is ready to
              use once its training is done.
            </p>
          </div>
        ) : (
          <ul className={listClasses}>
            {listed.map((model) => (
              <CustomModelItem key={model.id} model={model} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
