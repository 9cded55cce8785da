import { inferenceConfigSchema, type InferenceConfig } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const INFERENCE_CONFIG_PATH = '/api/inference/config';

/** GET /api/inference/config (public): Replicate, or the local provider that makes previews. */
export function getInferenceConfig({ signal }: { signal?: AbortSignal } = {}): Promise<InferenceConfig> {
  return apiRequest('GET', INFERENCE_CONFIG_PATH, { schema: inferenceConfigSchema, signal });
}

export function inferenceConfigQueryOptions() {
  return queryOptions({
    queryKey: [INFERENCE_CONFIG_PATH],
    queryFn: getInferenceConfig,
  });
}

export function useInferenceConfig() {
  return useQuery(inferenceConfigQueryOptions());
}
