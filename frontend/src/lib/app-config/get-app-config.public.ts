import type { AppConfig } from '@likeness/contracts';
import { expectFields, useApiData } from '@/public/use-api-data';

// The public pages' settings (their own bundle, build-tools/public-build.ts): the same GET, checked by hand.

export const APP_CONFIG_PATH = '/api/config';

/** The contracts' appConfigSchema, checked by hand: an address with one @ and a dotted domain. */
export function checkAppConfig(value: unknown): AppConfig {
  const config = expectFields(value, { supportEmail: 'string' }, 'config');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(config.supportEmail as string)) {
    throw new TypeError('config: supportEmail should be an email address');
  }
  return config as AppConfig;
}

export function useAppConfig() {
  return useApiData(APP_CONFIG_PATH, checkAppConfig);
}
