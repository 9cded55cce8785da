import {
  confirmPaymentResponseSchema,
  type ConfirmPaymentRequest,
  type ConfirmPaymentResponse,
} from '@likeness/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/confirm-payment: checks the provider's record and grants the credits once
 * (idempotent). The answer is the number of credits the payment added.
 */
export function confirmPayment({ paymentIntentId }: ConfirmPaymentRequest): Promise<ConfirmPaymentResponse> {
  return apiRequest('POST', '/api/confirm-payment', {
    body: { paymentIntentId },
    schema: confirmPaymentResponseSchema,
  });
}

export function useConfirmPayment({ onConfirmed }: { onConfirmed?: () => Promise<unknown> | void } = {}) {
  return useMutation({
    mutationFn: confirmPayment,
    // Awaited: the result screen shows the refreshed balance, not the one from before the payment.
    onSuccess: () => onConfirmed?.(),
  });
}
