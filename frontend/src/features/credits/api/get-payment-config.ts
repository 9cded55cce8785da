import { paymentConfigSchema, type PaymentConfig } from '@likeness/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const PAYMENT_CONFIG_PATH = '/api/payments/config';

/** GET /api/payments/config: which payment form to show (Stripe with its publishable key, or the local test form). */
export function getPaymentConfig({ signal }: { signal?: AbortSignal } = {}): Promise<PaymentConfig> {
  return apiRequest('GET', PAYMENT_CONFIG_PATH, { schema: paymentConfigSchema, signal });
}

export function paymentConfigQueryOptions() {
  return queryOptions({
    queryKey: [PAYMENT_CONFIG_PATH],
    queryFn: getPaymentConfig,
  });
}

export function usePaymentConfig() {
  return useQuery(paymentConfigQueryOptions());
}
