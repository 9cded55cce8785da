import type { CurrentUser, UploadedImage } from '@likeness/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeSelfies } from '@/test/media-fixtures';
import { alice, type ApiHandlers, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';
import { makeModel, type ModelFixture } from '@/test/training-fixtures';

const ada: CurrentUser = { id: 2, username: 'Ada_Lovelace', email: 'ada@example.com', credits: 40, role: 'user' };

interface Setup {
  user?: CurrentUser;
  selfies?: UploadedImage[];
  models?: ModelFixture[];
  provider?: 'replicate' | 'local';
  handlers?: ApiHandlers;
}

async function openModels({
  user = ada,
  selfies = makeSelfies(25),
  models = [],
  provider = 'replicate',
  handlers = {},
}: Setup = {}) {
  const fetchMock = mockApi({
    user,
    handlers: {
      'GET /api/uploaded-images': () => jsonResponse(selfies),
      'GET /api/custom-models': () => jsonResponse(models),
      'GET /api/inference/config': () => jsonResponse({ provider }),
      ...handlers,
    },
  });
  const app = renderApp('/models');
  await screen.findByRole('heading', { level: 1, name: 'Custom AI Models' });
  await screen.findAllByRole('checkbox');
  return { ...app, fetchMock };
}

function card() {
  return within(screen.getByRole('region', { name: 'Train Custom Model' }));
}

function picker() {
  return within(screen.getByRole('region', { name: /^Image Selection/ }));
}

function startButton() {
  return card().getByRole('button', { name: /^Start Training/ });
}

function trainCalls(fetchMock: ReturnType<typeof mockApi>) {
  return callsTo(fetchMock, 'POST', '/api/train-model');
}

async function selectFirst(user: ReturnType<typeof renderApp>['user'], count: number) {
  const boxes = picker().getAllByRole('checkbox');
  for (const box of boxes.slice(0, count)) await user.click(box);
}

describe('Train Custom Model', () => {
  it('should name the model and its trigger word from the username and the time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 23, 14, 5));

    await openModels();

    expect(card().getByLabelText('Model name')).toHaveValue('Ada Lovelace model Nov 23');
    expect(card().getByLabelText('Trigger word')).toHaveValue('ada1405');
  });

  it('should let both names be edited', async () => {
    const { user } = await openModels();

    await user.clear(card().getByLabelText('Model name'));
    await user.type(card().getByLabelText('Model name'), 'My Portrait Model');

    expect(card().getByLabelText('Model name')).toHaveValue('My Portrait Model');
  });

  it('should summarise how many selfies are selected', async () => {
    const { user } = await openModels();
    expect(card().getByText('0 selfies selected')).toBeInTheDocument();

    await selectFirst(user, 1);
    expect(card().getByText('1 selfie selected')).toBeInTheDocument();

    await user.click(picker().getByRole('button', { name: 'Select All' }));
    expect(card().getByText('20 selfies selected')).toBeInTheDocument();
    expect(card().getByText('Within the 12-20 a training needs')).toBeInTheDocument();
  });

  it('should look disabled and say why until 12-20 selfies are selected and 30 credits are there, sending nothing', async () => {
    const { user, fetchMock } = await openModels({ user: { ...ada, credits: 29 } });
    const expectBlocked = async (reason: string) => {
      expect(startButton()).toHaveAttribute('aria-disabled', 'true');
      expect(startButton()).toHaveAccessibleDescription(expect.stringContaining(reason));
      await user.click(startButton());
      expect(screen.queryByText('Training failed')).not.toBeInTheDocument();
    };

    await expectBlocked('Select 12 selfies (0 selected)');
    await selectFirst(user, 11);
    await expectBlocked('Select 12 selfies (11 selected)');

    await user.click(picker().getByRole('button', { name: 'Select All' }));
    const boxes = picker().getAllByRole('checkbox');
    await user.click(boxes[20]!);
    await expectBlocked('Select at most 20 selfies (21 selected)');

    // Enough selfies, 29 of 30 credits (DESIGN §5).
    await user.click(boxes[20]!);
    await expectBlocked('You need at least 30 credits to train a custom model');

    expect(trainCalls(fetchMock)).toHaveLength(0);
  });

  it('should ask for a model name in a toast once the selfies and the credits are there', async () => {
    const { user, fetchMock } = await openModels({ user: { ...ada, credits: 30 } });
    await user.click(picker().getByRole('button', { name: 'Select All' }));
    expect(startButton()).not.toHaveAttribute('aria-disabled');

    await user.clear(card().getByLabelText('Model name'));
    await user.type(card().getByLabelText('Model name'), '   ');
    await user.click(startButton());

    expect(await screen.findByText('Please enter a model name')).toBeInTheDocument();
    expect(screen.getByText('Training failed')).toBeInTheDocument();
    expect(trainCalls(fetchMock)).toHaveLength(0);
  });

  it('should warn under the button below 30 credits, with a way to buy more', async () => {
    await openModels({ user: alice });

    const warning = card().getByText('You need at least 30 credits to train a custom model');
    expect(warning).toBeInTheDocument();
    expect(card().getByRole('link', { name: 'Buy credits' })).toHaveAttribute('href', '/credits');
  });

  it('should not warn with 30 credits or more', async () => {
    await openModels({ user: { ...ada, credits: 30 } });

    expect(card().queryByText('You need at least 30 credits to train a custom model')).not.toBeInTheDocument();
    expect(startButton()).toHaveTextContent('Start Training (30 credits)');
  });

  it('should need a trigger word to enable the button', async () => {
    const { user } = await openModels();

    await user.click(picker().getByRole('button', { name: 'Select All' }));
    await user.clear(card().getByLabelText('Trigger word'));
    expect(startButton()).toHaveAttribute('aria-disabled', 'true');
    expect(startButton()).toHaveAccessibleDescription('Enter a trigger word');

    await user.type(card().getByLabelText('Trigger word'), 'ada');
    expect(startButton()).not.toHaveAttribute('aria-disabled');
  });

  it("should show the shared schema's messages under the fields and send nothing", async () => {
    const { user, fetchMock } = await openModels();
    await user.click(picker().getByRole('button', { name: 'Select All' }));

    await user.clear(card().getByLabelText('Model name'));
    await user.type(card().getByLabelText('Model name'), 'ab');
    await user.clear(card().getByLabelText('Trigger word'));
    await user.type(card().getByLabelText('Trigger word'), 'two words');
    await user.click(startButton());

    expect(await card().findByText('Model name must be at least 3 characters')).toBeInTheDocument();
    expect(
      card().getByText('Trigger word can only contain letters, numbers, hyphens and underscores'),
    ).toBeInTheDocument();
    expect(card().getByLabelText('Model name')).toHaveAttribute('aria-invalid', 'true');
    expect(card().getByLabelText('Model name')).toHaveFocus();
    expect(trainCalls(fetchMock)).toHaveLength(0);

    await user.type(card().getByLabelText('Model name'), 'c');
    expect(card().queryByText('Model name must be at least 3 characters')).not.toBeInTheDocument();
  });

  it.each(['pending', 'training'])('should lock the form while a model is %s, and say why', async (status) => {
    await openModels({ models: [makeModel(7, { modelName: 'ada-first', status }), makeModel(3)] });

    expect(await card().findByText('“ada-first” is training.')).toBeInTheDocument();
    expect(card().getByLabelText('Model name')).toBeDisabled();
    expect(card().getByLabelText('Trigger word')).toBeDisabled();
    expect(startButton()).toBeDisabled();
  });

  it('should not lock the form for completed or failed models', async () => {
    await openModels({ models: [makeModel(2, { status: 'failed' }), makeModel(1)] });
    await screen.findByText('model-2');

    expect(card().getByLabelText('Model name')).toBeEnabled();
    expect(startButton()).toBeEnabled();
  });

  it('should start the training, clear the selection and refresh the models and the balance', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 23, 14, 5));
    let models: ModelFixture[] = [];
    let credits = 40;
    const selfies = makeSelfies(14);
    const { user, fetchMock } = await openModels({
      selfies,
      handlers: {
        'GET /api/custom-models': () => jsonResponse(models),
        'GET /api/user': () => jsonResponse({ ...ada, credits }),
        'POST /api/train-model': () => {
          const model = makeModel(9, {
            modelName: 'Ada Lovelace model Nov 23',
            triggerWord: 'ada1405',
            status: 'pending',
          });
          models = [model];
          credits = 10;
          return jsonResponse(model, 201);
        },
      },
    });
    await selectFirst(user, 12);

    await user.click(startButton());

    expect(await screen.findByText('Training started!')).toBeInTheDocument();
    expect(screen.getByText('Your custom model is now training. This may take 10-20 minutes.')).toBeInTheDocument();
    const [call] = trainCalls(fetchMock);
    expect(call!.body).toEqual({
      modelName: 'Ada Lovelace model Nov 23',
      triggerWord: 'ada1405',
      referenceImageIds: selfies.slice(0, 12).map(({ id }) => id),
      trainingType: 'flux-lora',
    });
    expect(picker().getByRole('heading', { name: 'Image Selection (0/20)' })).toBeInTheDocument();
    expect(card().getByText('0 selfies selected')).toBeInTheDocument();
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/custom-models')).toHaveLength(2));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/user').length).toBeGreaterThanOrEqual(2));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/uploaded-images')).toHaveLength(2));
    const list = within(screen.getByRole('region', { name: 'Your Custom Models' }));
    expect(list.getByText('Preparing to train')).toBeInTheDocument();
    expect(card().getByLabelText('Model name')).toBeDisabled();
    // The refreshed balance (30 credits held) now falls short of another training.
    expect(await card().findByText('You need at least 30 credits to train a custom model')).toBeInTheDocument();
  });

  it.each([
    [
      409,
      'TRAINING.ALREADY_TRAINING',
      'You already have a model in training. Please wait until it finishes before training another.',
    ],
    [402, 'BILLING.INSUFFICIENT_CREDITS', 'Insufficient credits. Model training requires 30 credits.'],
    [404, 'COMMON.NOT_FOUND', 'Some of the selected selfies were not found.'],
  ])('should show the server message when it answers %i', async (status, code, message) => {
    const { user } = await openModels({
      handlers: { 'POST /api/train-model': () => errorResponse(status, code, message) },
    });
    await selectFirst(user, 12);

    await user.click(startButton());

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByText('Training failed')).toBeInTheDocument();
    expect(card().getByText('12 selfies selected')).toBeInTheDocument();
  });

  it('should show the model that is already training after a 409', async () => {
    let models: ModelFixture[] = [];
    const { user } = await openModels({
      handlers: {
        'GET /api/custom-models': () => jsonResponse(models),
        'POST /api/train-model': () => {
          models = [makeModel(4, { modelName: 'other-tab', status: 'training' })];
          return errorResponse(409, 'TRAINING.ALREADY_TRAINING', 'A model is already training.');
        },
      },
    });
    await selectFirst(user, 12);

    await user.click(startButton());

    expect(await card().findByText('“other-tab” is training.')).toBeInTheDocument();
    expect(startButton()).toBeDisabled();
  });

  it('should fall back to a general message when the server gives none', async () => {
    const { user } = await openModels({
      handlers: { 'POST /api/train-model': () => new Response('', { status: 502, statusText: 'Bad Gateway' }) },
    });
    await selectFirst(user, 12);

    await user.click(startButton());

    expect(
      await screen.findByText('There was an error starting the model training. Please try again.'),
    ).toBeInTheDocument();
  });

  it('should say plainly what local mode makes, only in local mode', async () => {
    await openModels({ provider: 'local' });
    expect(
      await card().findByText(/generated images are previews made from your selfies, not AI portraits/),
    ).toBeInTheDocument();
  });

  it('should not show the local notice with Replicate', async () => {
    const { fetchMock } = await openModels({ provider: 'replicate' });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/inference/config')).toHaveLength(1));

    expect(card().queryByText(/Local preview mode/)).not.toBeInTheDocument();
  });
});
