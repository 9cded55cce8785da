import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { creatorPack, localPaymentConfig, paymentIntentFor } from '@/test/billing-fixtures';
import { alice, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';

type Handler = () => Response | Promise<Response>;

async function openPaymentForm(handlers: Record<string, Handler> = {}) {
  const fetchMock = mockApi({
    user: alice,
    handlers: {
      'POST /api/create-payment-intent': () => jsonResponse(paymentIntentFor(creatorPack)),
      'GET /api/payments/config': () => jsonResponse(localPaymentConfig),
      'POST /api/confirm-payment': () => jsonResponse({ credits: 125 }),
      ...handlers,
    },
  });
  const app = renderApp('/checkout/creator');
  await screen.findByLabelText('Card number');
  return { ...app, fetchMock };
}

function inlineAlert() {
  return screen.getAllByRole('alert').find((element) => element.closest('form'));
}

describe('LocalTestCardForm', () => {
  it('should say it is a test and list the two test cards', async () => {
    await openPaymentForm();

    expect(screen.getByText('Test mode — no real card is charged')).toBeInTheDocument();
    expect(screen.getByText('4242 4242 4242 4242')).toBeInTheDocument();
    expect(screen.getByText('Payment succeeds')).toBeInTheDocument();
    expect(screen.getByText('4000 0000 0000 0002')).toBeInTheDocument();
    expect(screen.getByText('Card is declined')).toBeInTheDocument();
    expect(screen.queryByText('Stripe is not configured')).not.toBeInTheDocument();

    const cardNumber = screen.getByLabelText('Card number');
    expect(cardNumber).toHaveAttribute('inputmode', 'numeric');
    expect(cardNumber).toHaveAttribute('autocomplete', 'cc-number');
  });

  it('should group the card number in fours as it is typed', async () => {
    const { user } = await openPaymentForm();

    await user.type(screen.getByLabelText('Card number'), '42424242abc42424242');

    expect(screen.getByLabelText('Card number')).toHaveValue('4242 4242 4242 4242');
  });

  it('should pay with the typed card and open the payment result', async () => {
    const { user, router, fetchMock } = await openPaymentForm({
      'POST /api/local-payments/confirm': () => jsonResponse({ paymentIntentId: 'pi_test_123', status: 'succeeded' }),
    });

    await user.type(screen.getByLabelText('Card number'), '4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: 'Pay $11.00' }));

    expect(await screen.findByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/local-payments/confirm').map(({ body }) => body)).toEqual([
      { paymentIntentId: 'pi_test_123', cardNumber: '4242424242424242' },
    ]);
    expect(router.state.location.pathname).toBe('/success');
    expect(router.state.location.search).toBe('?payment_intent=pi_test_123&redirect_status=succeeded');
  });

  it('should fill in a test card from the list', async () => {
    const { user } = await openPaymentForm();

    await user.click(screen.getByRole('button', { name: 'Use test card 4000 0000 0000 0002' }));

    expect(screen.getByLabelText('Card number')).toHaveValue('4000 0000 0000 0002');
    expect(screen.getByLabelText('Card number')).toHaveFocus();
  });

  it('should show a decline beside the form and in a "Payment declined" toast', async () => {
    const { user, router } = await openPaymentForm({
      'POST /api/local-payments/confirm': () =>
        errorResponse(402, 'BILLING.PAYMENT_DECLINED', 'Your card was declined.'),
    });

    await user.type(screen.getByLabelText('Card number'), '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay $11.00' }));

    expect(await screen.findByText('Payment declined')).toBeInTheDocument();
    await waitFor(() => expect(inlineAlert()).toHaveTextContent('Your card was declined.'));
    expect(screen.getAllByText('Your card was declined.')).toHaveLength(2);
    expect(router.state.location.pathname).toBe('/checkout/creator');
    expect(screen.getByRole('button', { name: 'Pay $11.00' })).toBeEnabled();
  });

  it('should check the card number before sending it', async () => {
    const { user, fetchMock } = await openPaymentForm();

    await user.type(screen.getByLabelText('Card number'), '4242');
    await user.click(screen.getByRole('button', { name: 'Pay $11.00' }));

    const cardNumber = screen.getByLabelText('Card number');
    expect(await screen.findByText('Please enter a card number of 12 to 19 digits.')).toBeInTheDocument();
    expect(cardNumber).toHaveAttribute('aria-invalid', 'true');
    expect(cardNumber).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', '/api/local-payments/confirm')).toHaveLength(0);
  });

  it('should show "Payment failed" for errors other than a decline', async () => {
    const { user } = await openPaymentForm({
      'POST /api/local-payments/confirm': () => new Response('', { status: 502, statusText: 'Bad Gateway' }),
    });

    await user.type(screen.getByLabelText('Card number'), '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Pay $11.00' }));

    expect(await screen.findByText('Payment failed')).toBeInTheDocument();
    const form = screen.getByLabelText('Card number').closest('form')!;
    expect(within(form).getByRole('alert')).toHaveTextContent('Your payment could not be completed. Please try again.');
  });
});

describe('PaymentForm', () => {
  it('should show "Stripe is not configured" and warn when Stripe has no publishable key', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    mockApi({
      user: alice,
      handlers: {
        'POST /api/create-payment-intent': () => jsonResponse(paymentIntentFor(creatorPack, 'stripe')),
        'GET /api/payments/config': () => jsonResponse({ provider: 'stripe', publishableKey: null }),
      },
    });
    renderApp('/checkout/creator');

    expect(await screen.findByText('Stripe is not configured')).toBeInTheDocument();
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Payments will not work properly'));
  });

  it('should offer a retry when the payment settings cannot be loaded', async () => {
    let attempts = 0;
    mockApi({
      user: alice,
      handlers: {
        'POST /api/create-payment-intent': () => jsonResponse(paymentIntentFor(creatorPack)),
        'GET /api/payments/config': () =>
          ++attempts === 1 ? errorResponse(500, 'COMMON.INTERNAL', 'Boom') : jsonResponse(localPaymentConfig),
      },
    });
    const { user } = renderApp('/checkout/creator');

    await user.click(await screen.findByRole('button', { name: 'Try again' }));

    expect(await screen.findByLabelText('Card number')).toBeInTheDocument();
    expect(screen.queryByText('Stripe is not configured')).not.toBeInTheDocument();
  });
});
