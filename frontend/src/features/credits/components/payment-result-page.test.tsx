import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';

const successUrl = '/success?payment_intent=pi_test_123&redirect_status=succeeded';

/** GET /api/user answers alice, then alice with the purchased credits. */
function userBeforeAndAfter(creditsAfter: number) {
  let calls = 0;
  return () => jsonResponse(++calls === 1 ? alice : { ...alice, credits: creditsAfter });
}

describe('PaymentResultPage', () => {
  it('should confirm the payment once under StrictMode, toast the credits and show the new balance', async () => {
    const fetchMock = mockApi({
      user: alice,
      handlers: {
        'GET /api/user': userBeforeAndAfter(130),
        'POST /api/confirm-payment': () => jsonResponse({ credits: 125 }),
      },
    });
    renderApp(successUrl, { strict: true });

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeInTheDocument();
    // The toasts load after the first screen.
    expect(await screen.findByText('Payment confirmed!')).toBeInTheDocument();
    expect(screen.getAllByText('125 credits have been added to your account.')).toHaveLength(2);
    expect(screen.getByText('Current balance').parentElement).toHaveTextContent('130 credits');
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(callsTo(fetchMock, 'POST', '/api/confirm-payment').map(({ body }) => body)).toEqual([
      { paymentIntentId: 'pi_test_123' },
    ]);
  });

  it('should say so while the payment is being confirmed', async () => {
    mockApi({ user: alice, handlers: { 'POST /api/confirm-payment': () => new Promise<Response>(() => {}) } });
    renderApp(successUrl);

    expect(await screen.findByText('Confirming your payment...')).toBeInTheDocument();
  });

  it.each([
    ['without a payment intent', '/success?redirect_status=succeeded'],
    ['without a redirect status', '/success?payment_intent=pi_test_123'],
    ['when the payment did not succeed', '/success?payment_intent=pi_test_123&redirect_status=failed'],
  ])('should go to the dashboard %s', async (_case, url) => {
    const fetchMock = mockApi({ user: alice });
    const { router } = renderApp(url);

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(callsTo(fetchMock, 'POST', '/api/confirm-payment')).toHaveLength(0);
  });

  it('should toast "Error confirming payment" with the server message and lead back to the credits page', async () => {
    mockApi({
      user: alice,
      handlers: {
        'POST /api/confirm-payment': () => errorResponse(404, 'BILLING.PAYMENT_NOT_FOUND', 'Payment not found.'),
      },
    });
    renderApp(successUrl);

    expect(await screen.findByText('Error confirming payment')).toBeInTheDocument();
    expect(screen.getAllByText('Payment not found.')).toHaveLength(2);
    expect(screen.getByRole('heading', { level: 1, name: "We couldn't confirm your payment" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Credits' })).toHaveAttribute('href', '/credits');
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('should fall back to "Something went wrong." without a server message', async () => {
    mockApi({
      user: alice,
      handlers: { 'POST /api/confirm-payment': () => new Response('', { status: 502, statusText: 'Bad Gateway' }) },
    });
    renderApp(successUrl);

    expect(await screen.findByText('Error confirming payment')).toBeInTheDocument();
    expect(screen.getAllByText('Something went wrong.')).toHaveLength(2);
  });

  it('should let the user check again while the payment is still processing', async () => {
    let attempts = 0;
    const fetchMock = mockApi({
      user: alice,
      handlers: {
        'POST /api/confirm-payment': () =>
          ++attempts === 1
            ? errorResponse(409, 'BILLING.PAYMENT_PENDING', 'Your payment is still processing.')
            : jsonResponse({ credits: 50 }),
      },
    });
    const { user } = renderApp(successUrl);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your payment is still processing' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeInTheDocument();
    expect(screen.getAllByText('50 credits have been added to your account.')).toHaveLength(2);
    expect(callsTo(fetchMock, 'POST', '/api/confirm-payment')).toHaveLength(2);
  });
});
