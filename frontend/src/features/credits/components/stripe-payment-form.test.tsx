import { screen } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { creatorPack, paymentIntentFor } from '@/test/billing-fixtures';
import { alice, jsonResponse, mockApi, renderApp } from '@/test/render-app';

// Stripe.js comes from js.stripe.com and renders in iframes: stand-ins record what the form asks of it.
const stripeMocks = vi.hoisted(() => ({
  loadStripe: vi.fn(),
  confirmPayment: vi.fn(),
  elementsOptions: vi.fn(),
}));

vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: stripeMocks.loadStripe }));

vi.mock('@stripe/react-stripe-js', () => {
  const elements = { kind: 'elements' };
  return {
    Elements: ({ stripe, options, children }: { stripe: unknown; options: unknown; children: ReactNode }) => {
      stripeMocks.elementsOptions(stripe, options);
      return <div data-testid="stripe-elements">{children}</div>;
    },
    PaymentElement: ({ onReady }: { onReady?: () => void }) => {
      useEffect(() => {
        onReady?.();
      }, [onReady]);
      return <div>Stripe payment element</div>;
    },
    useStripe: () => ({ confirmPayment: stripeMocks.confirmPayment }),
    useElements: () => elements,
  };
});

function openStripeCheckout(publishableKey: string | null = 'pk_test_123') {
  mockApi({
    user: alice,
    handlers: {
      'POST /api/create-payment-intent': () => jsonResponse(paymentIntentFor(creatorPack, 'stripe')),
      'GET /api/payments/config': () => jsonResponse({ provider: 'stripe', publishableKey }),
    },
  });
  return renderApp('/checkout/creator');
}

describe('StripePaymentForm', () => {
  beforeEach(() => {
    stripeMocks.loadStripe.mockResolvedValue({ kind: 'stripe' });
    stripeMocks.confirmPayment.mockResolvedValue({ error: { message: 'Your card has insufficient funds.' } });
  });

  it("should load Stripe with the publishable key and mount the PaymentElement for the intent's client secret", async () => {
    openStripeCheckout();

    expect(await screen.findByText('Stripe payment element')).toBeInTheDocument();
    expect(stripeMocks.loadStripe).toHaveBeenCalledWith('pk_test_123');
    expect(stripeMocks.elementsOptions).toHaveBeenCalledWith(
      { kind: 'stripe' },
      expect.objectContaining({ clientSecret: 'pi_test_123_secret_abc' }),
    );
    expect(screen.queryByText('Stripe is not configured')).not.toBeInTheDocument();
    expect(screen.queryByText(/Test mode/)).not.toBeInTheDocument();
  });

  it('should confirm with Stripe, returning to /success, and show its error beside the form', async () => {
    const { user } = openStripeCheckout();

    await user.click(await screen.findByRole('button', { name: 'Pay $11.00' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Your card has insufficient funds.');
    expect(stripeMocks.confirmPayment).toHaveBeenCalledWith({
      elements: { kind: 'elements' },
      confirmParams: { return_url: `${window.location.origin}/success` },
    });
  });

  it('should show "Stripe is not configured" and warn when Stripe.js cannot be loaded', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stripeMocks.loadStripe.mockRejectedValue(new Error('Failed to load Stripe.js'));
    openStripeCheckout();

    expect(await screen.findByText('Stripe is not configured')).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Payments will not work properly'));
    expect(screen.queryByRole('button', { name: 'Pay $11.00' })).not.toBeInTheDocument();
  });

  it('should not load Stripe at all without a publishable key', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    openStripeCheckout(null);

    expect(await screen.findByText('Stripe is not configured')).toBeInTheDocument();
    expect(stripeMocks.loadStripe).not.toHaveBeenCalled();
  });
});
