import { customModelSchema } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { useLiveUpdates } from '@/lib/live-events/live-events';
import { ALWAYS_REFETCH_ON_MOUNT } from '@/lib/query-client';
import { isTrainingStatus } from './model-status';

export const CUSTOM_MODELS_PATH = '/api/custom-models';

/** SPEC §4: the model list is re-fetched every 30 seconds while the page is open, not in the background. */
export const MODELS_REFRESH_MS = 30_000;
/**
 * A deliberate addition to SPEC §4: while a model is pending or training the list is re-fetched
 * every 3 seconds, so a training that ends (a local one takes seconds) shows at once, not up to
 * 30 seconds later. Back to 30 seconds as soon as nothing trains.
 */
export const ACTIVE_TRAINING_REFRESH_MS = 3_000;

/**
 * A model as listed. SPEC §4 shows any status it does not know as it is ("ready" is the old
 * name of "completed"), so the list accepts any status text rather than failing on one.
 */
export const listedModelSchema = customModelSchema.extend({ status: z.string() });
export type ListedModel = z.infer<typeof listedModelSchema>;

const listedModelsSchema = z.array(listedModelSchema);

/** GET /api/custom-models: the user's models, newest first. */
export function getCustomModels({ signal }: { signal?: AbortSignal } = {}): Promise<ListedModel[]> {
  return apiRequest('GET', CUSTOM_MODELS_PATH, { schema: listedModelsSchema, signal });
}

export function hasTrainingModel(models: readonly ListedModel[] | undefined): boolean {
  return (models ?? []).some((model) => isTrainingStatus(model.status));
}

/** `live`: the live events stream is open and refreshes the list when a training moves, so nothing polls. */
export function customModelsQueryOptions({ live = false }: { live?: boolean } = {}) {
  return queryOptions({
    queryKey: [CUSTOM_MODELS_PATH],
    queryFn: getCustomModels,
    refetchInterval: (query) =>
      live ? false : hasTrainingModel(query.state.data) ? ACTIVE_TRAINING_REFRESH_MS : MODELS_REFRESH_MS,
    refetchIntervalInBackground: false,
    // A training finishes while other screens are open: the create page must offer the model.
    staleTime: ALWAYS_REFETCH_ON_MOUNT,
  });
}

/** The user's models, kept fresh while a screen shows them: by the live events, or the intervals above while they are down. */
export function useCustomModels() {
  return useQuery(customModelsQueryOptions({ live: useLiveUpdates() }));
}
