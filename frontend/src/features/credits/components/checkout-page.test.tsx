import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { creatorPack, localPaymentConfig, paymentIntentFor } from '@/test/billing-fixtures';
import { alice, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';

describe('CheckoutPage', () => {
  it('should request one payment intent for the package, even under StrictMode, and show the payment form', async () => {
    const fetchMock = mockApi({
      user: alice,
      handlers: {
        'POST /api/create-payment-intent': () => jsonResponse(paymentIntentFor(creatorPack)),
        'GET /api/payments/config': () => jsonResponse(localPaymentConfig),
      },
    });
    renderApp('/checkout/creator', { strict: true });

    expect(await screen.findByRole('heading', { level: 1, name: 'Complete Your Purchase' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Creator Pack' })).toBeInTheDocument();
    expect(screen.getByText('Up to 25 avatar generations')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Packages' })).toHaveAttribute('href', '/credits');
    expect(await screen.findByRole('button', { name: 'Pay $11.00' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/create-payment-intent').map(({ body }) => body)).toEqual([
      { packageId: 'creator' },
    ]);
  });

  it('should show a spinner while the payment intent is created', async () => {
    mockApi({ user: alice, handlers: { 'POST /api/create-payment-intent': () => new Promise<Response>(() => {}) } });
    renderApp('/checkout/creator');

    expect(await screen.findByRole('status', { name: 'Preparing checkout' })).toBeInTheDocument();
  });

  it('should say "Could not initialize payment. Please try again." and go to the dashboard when it fails', async () => {
    mockApi({
      user: alice,
      handlers: {
        'POST /api/create-payment-intent': () => new Response('', { status: 502, statusText: 'Bad Gateway' }),
      },
    });
    const { router } = renderApp('/checkout/creator');

    expect(await screen.findByText('Could not initialize payment. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('should prefer the server message when the package does not exist', async () => {
    mockApi({
      user: alice,
      handlers: {
        'POST /api/create-payment-intent': () =>
          errorResponse(404, 'BILLING.PACKAGE_NOT_FOUND', 'That credit package does not exist.'),
      },
    });
    const { router } = renderApp('/checkout/nope');

    expect(await screen.findByText('That credit package does not exist.')).toBeInTheDocument();
    await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});
