import type { CreatePaymentIntentResponse, CreditPackage, PaymentConfig } from '@likeness/contracts';

/** The packages billing serves (DESIGN §3). */
export const starterPack: CreditPackage = {
  id: 'starter',
  name: 'Starter Pack',
  description: 'Perfect for trying out AI avatars',
  credits: 50,
  price: 5,
  value: 'Great for beginners',
  popular: false,
};
export const creatorPack: CreditPackage = {
  id: 'creator',
  name: 'Creator Pack',
  description: 'Best value for regular creators',
  credits: 125,
  price: 11,
  value: '20% bonus credits',
  popular: true,
};
export const professionalPack: CreditPackage = {
  id: 'professional',
  name: 'Professional Pack',
  description: 'For power users and professionals',
  credits: 275,
  price: 22,
  value: '25% bonus credits',
  popular: false,
};
export const creditPackages = [starterPack, creatorPack, professionalPack];

export const localPaymentConfig: PaymentConfig = { provider: 'local', publishableKey: null };

export function paymentIntentFor(
  pkg: CreditPackage,
  provider: CreatePaymentIntentResponse['provider'] = 'local',
): CreatePaymentIntentResponse {
  return {
    clientSecret: 'pi_test_123_secret_abc',
    paymentIntentId: 'pi_test_123',
    packageDetails: pkg,
    provider,
  };
}
