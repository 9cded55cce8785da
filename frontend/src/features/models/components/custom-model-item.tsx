import { CircleAlert } from 'lucide-react';
import type { ListedModel } from '@/lib/custom-models/get-custom-models';
import { formatModelDate } from '../utils/format-model-date';
import { isTrainingStatus } from '@/lib/custom-models/model-status';
import { CopyTriggerWordButton } from './copy-trigger-word-button';
import { DeleteModelButton } from './delete-model-button';
import { ModelStatusBadge } from './model-status-badge';

/** One model in "Your Custom Models": its name, status, trigger word and created date. */
export function CustomModelItem({ model }: { model: ListedModel }) {
  const created = formatModelDate(model.createdAt);
  const training = isTrainingStatus(model.status);
  const failed = model.status === 'failed';

  return (
    <li
      aria-label={model.modelName}
      className="flex min-w-0 flex-col gap-3 rounded-xl border bg-background/60 p-4 shadow-xs dark:bg-background/30"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <h3 className="truncate leading-tight font-semibold" title={model.modelName}>
            {model.modelName}
          </h3>
          {created ? (
            <p className="text-xs text-muted-foreground">
              Created{' '}
              <time dateTime={model.createdAt} title={created.moment}>
                {created.day}
              </time>
            </p>
          ) : null}
        </div>
        {/* The server refuses to delete a model while it trains; the button returns when it is done. */}
        {training ? null : <DeleteModelButton model={model} />}
      </div>

      <ModelStatusBadge status={model.status} />

      {failed && model.failureReason ? (
        <p className="flex items-start gap-1.5 text-sm text-red-700 dark:text-red-300">
          <CircleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
          <span>{model.failureReason}</span>
        </p>
      ) : null}

      <div className="mt-auto flex items-center justify-between gap-2 rounded-lg bg-muted/70 py-1.5 pr-2 pl-3">
        <div className="flex min-w-0 flex-col">
          <span className="text-[11px] font-medium tracking-wide text-muted-foreground uppercase">Trigger word</span>
          <code className="truncate font-mono text-sm font-medium">{model.triggerWord}</code>
        </div>
        <CopyTriggerWordButton triggerWord={model.triggerWord} />
      </div>
    </li>
  );
}
