import { appConfigSchema, type AppConfig } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const APP_CONFIG_PATH = '/api/config';

/** GET /api/config (public): the deployment's settings the SPA shows, e.g. the support address. */
export function getAppConfig({ signal }: { signal?: AbortSignal } = {}): Promise<AppConfig> {
  return apiRequest('GET', APP_CONFIG_PATH, { schema: appConfigSchema, signal });
}

export function appConfigQueryOptions() {
  return queryOptions({
    queryKey: [APP_CONFIG_PATH],
    queryFn: getAppConfig,
  });
}

export function useAppConfig() {
  return useQuery(appConfigQueryOptions());
}
