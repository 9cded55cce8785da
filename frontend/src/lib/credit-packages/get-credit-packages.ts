import { creditPackageSchema, type CreditPackage } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';

export const CREDIT_PACKAGES_PATH = '/api/credit-packages';

const creditPackagesSchema = z.array(creditPackageSchema);

/** GET /api/credit-packages: the packages on sale. */
export function getCreditPackages({ signal }: { signal?: AbortSignal } = {}): Promise<CreditPackage[]> {
  return apiRequest('GET', CREDIT_PACKAGES_PATH, { schema: creditPackagesSchema, signal });
}

export function creditPackagesQueryOptions() {
  return queryOptions({
    queryKey: [CREDIT_PACKAGES_PATH],
    queryFn: getCreditPackages,
  });
}

export function useCreditPackages() {
  return useQuery(creditPackagesQueryOptions());
}
