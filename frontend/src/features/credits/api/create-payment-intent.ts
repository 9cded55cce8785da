import {
  createPaymentIntentResponseSchema,
  type CreatePaymentIntentRequest,
  type CreatePaymentIntentResponse,
} from '@likeness/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /api/create-payment-intent: a pending payment for one package and the provider's client secret. */
export function createPaymentIntent({ packageId }: CreatePaymentIntentRequest): Promise<CreatePaymentIntentResponse> {
  return apiRequest('POST', '/api/create-payment-intent', {
    body: { packageId },
    schema: createPaymentIntentResponseSchema,
  });
}

export function useCreatePaymentIntent() {
  return useMutation({ mutationFn: createPaymentIntent });
}
