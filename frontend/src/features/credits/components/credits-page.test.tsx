import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { creditPackages, creatorPack, localPaymentConfig, paymentIntentFor } from '@/test/billing-fixtures';
import { alice, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const billingHandlers = {
  'GET /api/credit-packages': () => jsonResponse(creditPackages),
  'GET /api/payments/config': () => jsonResponse(localPaymentConfig),
  'POST /api/create-payment-intent': () => jsonResponse(paymentIntentFor(creatorPack)),
};

async function openCredits(handlers: Record<string, () => Response | Promise<Response>> = {}) {
  const fetchMock = mockApi({ user: alice, handlers: { ...billingHandlers, ...handlers } });
  const app = renderApp('/credits');
  await screen.findByRole('radio', { name: 'Creator Pack' });
  return { ...app, fetchMock };
}

/** The card (the radio's label) of one package. */
function cardOf(name: string) {
  const label = screen.getByRole('radio', { name }).closest('label');
  if (!label) throw new Error(`No card for ${name}`);
  return within(label);
}

describe('CreditsPage', () => {
  it('should show the balance, a way back and every package with what it buys', async () => {
    await openCredits();

    expect(screen.getByRole('heading', { level: 1, name: 'Buy Credits' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByText('Current balance').parentElement).toHaveTextContent('5 credits');

    const starter = cardOf('Starter Pack');
    expect(starter.getByText('$5')).toBeInTheDocument();
    expect(starter.getByText('50 credits')).toBeInTheDocument();
    expect(starter.getByText('Up to 10 avatar generations')).toBeInTheDocument();
    expect(starter.getByText('1 model training')).toBeInTheDocument();
    expect(starter.queryByText('Most Popular')).not.toBeInTheDocument();

    const creator = cardOf('Creator Pack');
    expect(creator.getByText('Best value for regular creators')).toBeInTheDocument();
    expect(creator.getByText('$11')).toBeInTheDocument();
    expect(creator.getByText('125 credits')).toBeInTheDocument();
    expect(creator.getByText('20% bonus credits')).toBeInTheDocument();
    expect(creator.getByText('Up to 25 avatar generations')).toBeInTheDocument();
    expect(creator.getByText('4 model trainings')).toBeInTheDocument();
    expect(creator.getByText('Most Popular')).toBeInTheDocument();

    const professional = cardOf('Professional Pack');
    expect(professional.getByText('$22')).toBeInTheDocument();
    expect(professional.getByText('Up to 55 avatar generations')).toBeInTheDocument();
    expect(professional.getByText('9 model trainings')).toBeInTheDocument();
    expect(professional.getByText('Priority generation for 90 days after purchase')).toBeInTheDocument();
    expect(creator.queryByText(/Priority generation/)).not.toBeInTheDocument();

    expect(screen.getAllByRole('radio').every((radio) => !(radio as HTMLInputElement).checked)).toBe(true);
    expect(screen.queryByText('Selected')).not.toBeInTheDocument();
  });

  it('should explain how credits work', async () => {
    await openCredits();

    const section = within(screen.getByRole('heading', { name: 'How Credits Work' }).closest('section')!);
    expect(section.getByText('5 credits per avatar generation')).toBeInTheDocument();
    expect(section.getByText('30 credits to train a custom model')).toBeInTheDocument();
    expect(section.getByText('Credits never expire')).toBeInTheDocument();
    expect(section.getByText(/roll over/)).toBeInTheDocument();
    expect(section.getByText(/most users train one model once and then generate many/)).toBeInTheDocument();
  });

  it('should keep Continue to Payment disabled until a package is selected, and say why when pressed', async () => {
    const { user, fetchMock } = await openCredits();
    const continueButton = screen.getByRole('button', { name: 'Continue to Payment' });
    expect(continueButton).toHaveAttribute('aria-disabled', 'true');

    await user.click(continueButton);

    expect(await screen.findByText('No Package Selected')).toBeInTheDocument();
    expect(screen.getByText('Please select a credit package to continue.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/create-payment-intent')).toHaveLength(0);
  });

  it('should mark the clicked package Selected and enable Continue to Payment', async () => {
    const { user } = await openCredits();

    await user.click(cardOf('Creator Pack').getByText('Best value for regular creators'));

    expect(screen.getByRole('radio', { name: 'Creator Pack' })).toBeChecked();
    expect(cardOf('Creator Pack').getByText('Selected')).toBeInTheDocument();
    expect(cardOf('Starter Pack').queryByText('Selected')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue to Payment' })).not.toHaveAttribute('aria-disabled');
    expect(screen.getByText('Creator Pack', { selector: '[aria-live] span' })).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Starter Pack' }));

    expect(screen.getByRole('radio', { name: 'Starter Pack' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Creator Pack' })).not.toBeChecked();
    expect(screen.getAllByText('Selected')).toHaveLength(1);
  });

  it('should create a payment intent for the selected package and show the purchase view', async () => {
    const { user, fetchMock } = await openCredits();

    await user.click(screen.getByRole('radio', { name: 'Creator Pack' }));
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'Complete Your Purchase' });
    expect(heading).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', '/api/create-payment-intent').map(({ body }) => body)).toEqual([
      { packageId: 'creator' },
    ]);
    expect(screen.getByText('Order summary')).toBeInTheDocument();
    expect(screen.getByText('$11.00')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Pay $11.00' })).toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to Packages' }));

    expect(await screen.findByRole('radio', { name: 'Creator Pack' })).toBeChecked();
  });

  it('should say "Setting up secure payment..." while the payment settings load', async () => {
    const config = deferred<Response>();
    const { user } = await openCredits({ 'GET /api/payments/config': () => config.promise });

    await user.click(screen.getByRole('radio', { name: 'Creator Pack' }));
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));

    expect(await screen.findByText('Setting up secure payment...')).toBeInTheDocument();
    config.resolve(jsonResponse(localPaymentConfig));
    expect(await screen.findByLabelText('Card number')).toBeInTheDocument();
    expect(screen.queryByText('Setting up secure payment...')).not.toBeInTheDocument();
  });

  it('should disable the packages and Continue to Payment while the payment intent is created', async () => {
    const intent = deferred<Response>();
    const { user } = await openCredits({ 'POST /api/create-payment-intent': () => intent.promise });

    await user.click(screen.getByRole('radio', { name: 'Creator Pack' }));
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));

    await waitFor(() => expect(screen.getByRole('button', { name: 'Continue to Payment' })).toBeDisabled());
    expect(screen.getByRole('radio', { name: 'Starter Pack' })).toBeDisabled();
    intent.resolve(jsonResponse(paymentIntentFor(creatorPack)));
    expect(await screen.findByRole('heading', { name: 'Complete Your Purchase' })).toBeInTheDocument();
  });

  it('should show "Payment Setup Failed" with the server message when the intent cannot be created', async () => {
    const { user } = await openCredits({
      'POST /api/create-payment-intent': () =>
        errorResponse(404, 'BILLING.PACKAGE_NOT_FOUND', 'That credit package does not exist.'),
    });

    await user.click(screen.getByRole('radio', { name: 'Creator Pack' }));
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));

    expect(await screen.findByText('Payment Setup Failed')).toBeInTheDocument();
    expect(screen.getByText('That credit package does not exist.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Complete Your Purchase' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue to Payment' })).toBeEnabled();
  });

  it('should offer a retry when the packages cannot be loaded', async () => {
    let attempts = 0;
    mockApi({
      user: alice,
      handlers: {
        'GET /api/credit-packages': () =>
          ++attempts === 1 ? errorResponse(500, 'COMMON.INTERNAL', 'Boom') : jsonResponse(creditPackages),
      },
    });
    const { user } = renderApp('/credits');

    await user.click(await screen.findByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('radio', { name: 'Creator Pack' })).toBeInTheDocument();
  });
});
