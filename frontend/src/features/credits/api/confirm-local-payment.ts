import { localPaymentConfirmResponseSchema, type LocalPaymentConfirmRequest } from '@likeness/contracts';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';

export type LocalPaymentConfirmResponse = z.infer<typeof localPaymentConfirmResponseSchema>;

/**
 * POST /api/local-payments/confirm: pays a payment intent with a test card (the local test
 * processor only). A declined card answers 402 BILLING.PAYMENT_DECLINED.
 */
export function confirmLocalPayment(request: LocalPaymentConfirmRequest): Promise<LocalPaymentConfirmResponse> {
  return apiRequest('POST', '/api/local-payments/confirm', {
    body: request,
    schema: localPaymentConfirmResponseSchema,
  });
}

export function useConfirmLocalPayment() {
  return useMutation({ mutationFn: confirmLocalPayment });
}
