import { useEffect, useRef } from 'react';
import type { ListedModel } from '@/lib/custom-models/get-custom-models';
import { isTrainingStatus } from '@/lib/custom-models/model-status';

/**
 * Calls `onEnded` when a model that was pending or training no longer is (it completed, failed
 * or went away): a failed training gives its 30 credits back, and its selfies may be free again.
 */
export function useTrainingEnded(models: readonly ListedModel[] | undefined, onEnded: () => void): void {
  const active = useRef<ReadonlySet<number> | null>(null);
  const latestOnEnded = useRef(onEnded);

  useEffect(() => {
    latestOnEnded.current = onEnded;
  }, [onEnded]);

  useEffect(() => {
    if (!models) return;
    const now = new Set(models.filter((model) => isTrainingStatus(model.status)).map((model) => model.id));
    const before = active.current;
    active.current = now;
    if (before && [...before].some((id) => !now.has(id))) latestOnEnded.current();
  }, [models]);
}
