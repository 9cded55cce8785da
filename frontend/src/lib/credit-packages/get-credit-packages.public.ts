import type { CreditPackage } from '@likeness/contracts';
import { expectFields, useApiData } from '@/public/use-api-data';

// The public pages' pricing (their own bundle, build-tools/public-build.ts): the same GET, checked by hand.

export const CREDIT_PACKAGES_PATH = '/api/credit-packages';

/** The fields of the contracts' creditPackageSchema, checked by hand. */
export function checkCreditPackages(value: unknown): CreditPackage[] {
  if (!Array.isArray(value)) throw new TypeError('credit packages: expected a list');
  return value.map((pkg) => {
    const fields = {
      id: 'string',
      name: 'string',
      description: 'string',
      value: 'string',
      popular: 'boolean',
    } as const;
    const checked = expectFields(pkg, { ...fields, credits: 'number', price: 'number' }, 'credit package');
    if (!Number.isInteger(checked.credits) || (checked.credits as number) <= 0) {
      throw new TypeError('credit package: credits should be a positive whole number');
    }
    if ((checked.price as number) <= 0) throw new TypeError('credit package: price should be positive');
    return checked as unknown as CreditPackage;
  });
}

export function useCreditPackages() {
  return useApiData(CREDIT_PACKAGES_PATH, checkCreditPackages);
}
