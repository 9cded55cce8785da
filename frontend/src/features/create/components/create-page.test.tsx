import type { CurrentUser } from '@likeness/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { completedJob, JOB_ID, makeJob } from '@/test/generation-fixtures';
import { alice, type ApiHandlers, callsTo, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';
import { avatarsPage, makeAvatar } from '@/test/media-fixtures';
import { makeModel, type ModelFixture } from '@/test/training-fixtures';
import { CUSTOMIZER_CATEGORIES } from '../data/customizer-options';
import { NEGATIVE_PROMPT, PROMPT_ORDER } from '../utils/build-prompt';

const JOB_PATH = `/api/generation-jobs/${JOB_ID}`;
/** Newest first, as the server lists them: word2's model is the newest. */
const twoModels = [makeModel(2), makeModel(1)];

interface Setup {
  user?: CurrentUser;
  models?: ModelFixture[];
  provider?: 'replicate' | 'local';
  handlers?: ApiHandlers;
}

async function openCreate({ user = alice, models = twoModels, provider = 'replicate', handlers = {} }: Setup = {}) {
  const fetchMock = mockApi({
    user,
    handlers: {
      'GET /api/custom-models': () => jsonResponse(models),
      'GET /api/inference/config': () => jsonResponse({ provider }),
      'POST /api/generate-avatar': () => jsonResponse({ jobId: JOB_ID }, 201),
      [`GET ${JOB_PATH}`]: () => jsonResponse(completedJob()),
      ...handlers,
    },
  });
  const app = renderApp('/create');
  await screen.findByRole('heading', { level: 1, name: 'Create Studio Quality Photos' });
  await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/custom-models')).toHaveLength(1));
  return { ...app, fetchMock };
}

const modelSelect = () => screen.getByLabelText<HTMLSelectElement>('Custom model');
const promptBox = () => screen.getByLabelText<HTMLTextAreaElement>('Prompt');
const generateButton = () => screen.getByRole('button', { name: /^Generat/ });
const categorySelect = (label: RegExp) => screen.getByLabelText<HTMLSelectElement>(label);

describe('CreatePage', () => {
  it('should offer only the completed models with a trigger word, the newest chosen, its word starting the prompt', async () => {
    await openCreate({
      models: [
        makeModel(5, { status: 'training' }),
        makeModel(4, { status: 'failed', failureReason: 'Boom' }),
        makeModel(3, { status: 'ready' }),
        makeModel(2, { triggerWord: '' }),
        makeModel(1),
      ],
    });

    await waitFor(() => expect(modelSelect()).toHaveValue('3'));
    const options = within(modelSelect())
      .getAllByRole('option')
      .filter((option) => option.getAttribute('value'));
    expect(options.map((option) => option.textContent)).toEqual(['model-3 (word3)', 'model-1 (word1)']);
    expect(promptBox()).toHaveValue('word3 ');
    expect(
      screen.getByText('Your custom models are still training. Only completed models appear in this list.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Trigger word added')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '4', pressed: true })).toBeInTheDocument();
  });

  it('should point to the models page when there are no models, and keep Generate disabled', async () => {
    await openCreate({ models: [] });

    const hint = await screen.findByText(/You don't have any custom models yet/);
    expect(hint).toHaveTextContent(
      "You don't have any custom models yet. Train a model in the Custom Models section first.",
    );
    expect(within(hint).getByRole('link', { name: 'Custom Models' })).toHaveAttribute('href', '/models');
    expect(modelSelect()).toBeDisabled();
    expect(generateButton()).toBeDisabled();
  });

  it('should say "Trigger word added" when choosing a model changes the prompt', async () => {
    const { user } = await openCreate();
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    await user.selectOptions(modelSelect(), 'model-1 (word1)');

    expect(promptBox()).toHaveValue('word1 ');
    expect(await screen.findByText('Trigger word added')).toBeInTheDocument();

    await user.clear(promptBox());
    await user.type(promptBox(), 'an astronaut on the moon');
    await user.selectOptions(modelSelect(), 'model-2 (word2)');
    expect(promptBox()).toHaveValue('word2 an astronaut on the moon');
  });

  it('should build the prompt from a Random Look in SPEC order, and from a single feature after Clear All', async () => {
    const { user } = await openCreate();
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    await user.selectOptions(categorySelect(/^Gender$/), 'Female');
    await user.click(screen.getByRole('button', { name: 'Random Look' }));

    const labels: Record<(typeof CUSTOMIZER_CATEGORIES)[number], RegExp> = {
      gender: /^Gender$/,
      race: /^Ethnicity$/,
      age: /^Age$/,
      hairstyle: /^Hairstyle$/,
      eyeColor: /^Eye colour$/,
      costume: /^Outfit$/,
      activity: /^Activity$/,
      scene: /^Scene$/,
      place: /^Place$/,
      lighting: /^Lighting$/,
      artStyle: /^Art style$/,
      shotType: /^Shot type$/,
    };
    // Random Look changes the photo, not the person: the chosen gender stays, ethnicity, age, hair and eyes stay "Any".
    expect(categorySelect(labels.gender)).toHaveValue('Female');
    for (const category of ['race', 'age', 'hairstyle', 'eyeColor'] as const) {
      expect(categorySelect(labels[category])).toHaveValue('');
    }
    const chosen = PROMPT_ORDER.map((category) => categorySelect(labels[category]).value).filter(Boolean);
    expect(chosen).toHaveLength(8);
    // The negative prompt is not typed into the box: it goes with the request.
    expect(promptBox()).toHaveValue(`word2, ${chosen.join(', ')}, high quality, detailed, professional`);
    expect(screen.getAllByRole('button', { name: /^Remove / })).toHaveLength(8);

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(promptBox()).toHaveValue('word2 high quality portrait');
    expect(screen.queryByRole('button', { name: /^Remove / })).not.toBeInTheDocument();

    await user.selectOptions(categorySelect(/^Art style$/), 'watercolor');
    await user.selectOptions(categorySelect(/^Gender$/), 'Female');
    expect(promptBox()).toHaveValue('word2, Female, watercolor, high quality, detailed, professional');

    await user.click(screen.getByRole('button', { name: 'Remove Gender: Female' }));
    expect(promptBox()).toHaveValue('word2, watercolor, high quality, detailed, professional');
    expect(categorySelect(/^Gender$/)).toHaveValue('');

    // Another model rebuilds the customizer's prompt with its word.
    await user.selectOptions(modelSelect(), 'model-1 (word1)');
    expect(promptBox()).toHaveValue('word1, watercolor, high quality, detailed, professional');
  });

  it('should start a look from a preset in one tap, keeping the chosen person, and send the negative prompt on its own', async () => {
    const { user, fetchMock } = await openCreate();
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));
    await user.selectOptions(categorySelect(/^Age$/), 'Adult (30s)');

    await user.click(screen.getByRole('button', { name: /^Professional headshot/ }));

    expect(screen.getByRole('button', { name: /^Professional headshot/, pressed: true })).toBeInTheDocument();
    expect(categorySelect(/^Age$/)).toHaveValue('Adult (30s)');
    expect(promptBox()).toHaveValue(
      'word2, Adult (30s), tailored business suit, in a photo studio, studio lighting, head and shoulders portrait, photorealistic, high quality, detailed, professional',
    );

    await user.click(generateButton());

    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/generate-avatar')).toHaveLength(1));
    expect(callsTo(fetchMock, 'POST', '/api/generate-avatar')[0]?.body).toMatchObject({
      promptText: promptBox().value,
      negativePrompt: NEGATIVE_PROMPT,
    });
  });

  it('should generate, follow the job to "Avatar ready!", show the photos and keep the prompt', async () => {
    const { user, fetchMock } = await openCreate({
      handlers: {
        [`GET ${JOB_PATH}`]: () => jsonResponse(completedJob([11, 12], { customModelId: 2, numOutputs: 2 })),
        'GET /api/avatars': () => jsonResponse(avatarsPage([makeAvatar(12), makeAvatar(11), makeAvatar(3)])),
      },
    });
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));
    await user.type(promptBox(), 'as an astronaut  ');
    await user.click(screen.getByRole('button', { name: '2' }));
    const userCallsBefore = callsTo(fetchMock, 'GET', '/api/user').length;

    await user.click(generateButton());

    expect(await screen.findByText('Avatar ready!')).toBeInTheDocument();
    expect(screen.getByText('2 new avatars are in your gallery.')).toBeInTheDocument();
    const [post] = callsTo(fetchMock, 'POST', '/api/generate-avatar');
    expect(post?.body).toEqual({ promptText: 'word2 as an astronaut', customModelId: 2, numOutputs: 2 });
    expect(post?.init?.credentials).toBe('include');
    expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(1);
    const dialog = screen.getByRole('dialog', { name: 'Your avatars are ready!' });
    // The run's photos, in the job's order, each with Download and Share.
    const photos = await within(dialog).findAllByRole('img', { name: /^New avatar/ });
    expect(photos.map((photo) => photo.getAttribute('src'))).toEqual([
      makeAvatar(11).imageUrl,
      makeAvatar(12).imageUrl,
    ]);
    expect(within(dialog).getByRole('button', { name: 'Download photo 1 of 2' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Share photo 2 of 2' })).toBeEnabled();
    // The prompt stays as it was sent.
    expect(promptBox()).toHaveValue('word2 as an astronaut  ');
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/user').length).toBeGreaterThan(userCallsBefore));

    await user.click(within(dialog).getByRole('button', { name: 'Use this prompt again' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(promptBox()).toHaveValue('word2 as an astronaut  ');
    expect(promptBox()).toHaveFocus();
  });

  it('should start a new photo from the trigger word only when asked, and generate more like this at once', async () => {
    const secondJobId = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const jobIds = [JOB_ID, secondJobId];
    const { user, fetchMock } = await openCreate({
      handlers: {
        'POST /api/generate-avatar': () => jsonResponse({ jobId: jobIds.shift() }, 201),
        [`GET ${JOB_PATH}`]: () => jsonResponse(completedJob([11], { customModelId: 2, numOutputs: 1 })),
        [`GET /api/generation-jobs/${secondJobId}`]: () =>
          jsonResponse(completedJob([12], { id: secondJobId, customModelId: 2, numOutputs: 1 })),
        'GET /api/avatars': () => jsonResponse(avatarsPage([makeAvatar(12), makeAvatar(11)])),
      },
    });
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));
    await user.type(promptBox(), 'smiling');
    await user.click(screen.getByRole('button', { name: '1' }));
    await user.click(generateButton());
    const dialog = await screen.findByRole('dialog', { name: 'Your avatars are ready!' });

    await user.click(within(dialog).getByRole('button', { name: /^Generate more like this/ }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/generate-avatar')).toHaveLength(2));
    expect(callsTo(fetchMock, 'POST', '/api/generate-avatar')[1]?.body).toEqual({
      promptText: 'word2 smiling',
      customModelId: 2,
      numOutputs: 1,
    });

    const again = await screen.findByRole('dialog', { name: 'Your avatars are ready!' }, { timeout: 5_000 });
    expect(await within(again).findByRole('img', { name: /^New avatar/ })).toHaveAttribute(
      'src',
      makeAvatar(12).imageUrl,
    );
    await user.click(within(again).getByRole('button', { name: 'Start a new photo' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(promptBox()).toHaveValue('word2 ');
  });

  it('should report a completed job once under StrictMode', async () => {
    const fetchMock = mockApi({
      user: alice,
      handlers: {
        'GET /api/custom-models': () => jsonResponse(twoModels),
        'GET /api/inference/config': () => jsonResponse({ provider: 'replicate' }),
        'POST /api/generate-avatar': () => jsonResponse({ jobId: JOB_ID }, 201),
        [`GET ${JOB_PATH}`]: () => jsonResponse(completedJob([11], { customModelId: 2 })),
      },
    });
    const { user } = renderApp('/create', { strict: true });
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));
    await user.type(promptBox(), 'smiling');

    await user.click(generateButton());

    expect(await screen.findByText('Avatar ready!')).toBeInTheDocument();
    expect(screen.getByText('1 new avatar is in your gallery.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/generate-avatar')).toHaveLength(1);
    expect(promptBox()).toHaveValue('word2 smiling');
  });

  it('should show the progress overlay while the job is pending', async () => {
    const { user } = await openCreate({ handlers: { [`GET ${JOB_PATH}`]: () => jsonResponse(makeJob()) } });
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    await user.click(generateButton());

    const overlay = await screen.findByRole('dialog', { name: 'Generating your avatars...' });
    expect(overlay).toHaveAttribute('aria-modal', 'true');
    expect(await screen.findByText('Generation started')).toBeInTheDocument();
    expect(generateButton()).toBeDisabled();
    expect(generateButton()).toHaveTextContent('Generating...');
  });

  it('should say "Generation failed" with the reason when the job fails', async () => {
    const { user } = await openCreate({
      handlers: {
        [`GET ${JOB_PATH}`]: () =>
          jsonResponse(makeJob({ status: 'failed', failureReason: 'The image service is unavailable.' })),
      },
    });
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    await user.click(generateButton());

    expect(await screen.findByText('Generation failed')).toBeInTheDocument();
    expect(screen.getByText('The image service is unavailable.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(generateButton()).toBeEnabled();
  });

  it('should fall back to SPEC words for a failed job without a reason', async () => {
    const { user } = await openCreate({
      handlers: { [`GET ${JOB_PATH}`]: () => jsonResponse(makeJob({ status: 'failed', failureReason: null })) },
    });
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    await user.click(generateButton());

    expect(await screen.findByText('There was an issue generating your avatar. Please try again.')).toBeInTheDocument();
  });

  it("should show the server's message when the generation cannot start", async () => {
    const { user } = await openCreate({
      handlers: {
        'POST /api/generate-avatar': () =>
          errorResponse(
            402,
            'BILLING.INSUFFICIENT_CREDITS',
            'Insufficient credits: this needs 5 credits and you have 2 available. Please purchase more credits.',
          ),
      },
    });
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    await user.click(generateButton());

    expect(await screen.findByText('Generation failed')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Insufficient credits: this needs 5 credits and you have 2 available. Please purchase more credits.',
      ),
    ).toBeInTheDocument();
    expect(generateButton()).toBeEnabled();
  });

  it('should say "Generation failed" with the error when a poll fails', async () => {
    const { user } = await openCreate({
      handlers: { [`GET ${JOB_PATH}`]: () => errorResponse(500, 'COMMON.INTERNAL', 'Something broke.') },
    });
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    await user.click(generateButton());

    expect(await screen.findByText('Something broke.')).toBeInTheDocument();
    expect(screen.getByText('Generation failed')).toBeInTheDocument();
    await waitFor(() => expect(generateButton()).toBeEnabled());
  });

  it('should disable Generate below 5 credits with the red warning and a link to buy more', async () => {
    await openCreate({ user: { ...alice, credits: 4 } });
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    expect(generateButton()).toBeDisabled();
    const warning = screen.getByText('You need 5 credits to generate avatars.');
    expect(warning.closest('p')).toHaveClass('text-destructive');
    expect(within(warning.closest('p')!).getByRole('link', { name: 'Buy credits' })).toHaveAttribute(
      'href',
      '/credits',
    );
  });

  it('should run the pre-checks in order from the keyboard shortcut', async () => {
    const { user, fetchMock } = await openCreate({ user: { ...alice, credits: 4 }, models: [] });

    promptBox().focus();
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('Insufficient credits')).toBeInTheDocument();
    expect(
      screen.getByText('You need at least 5 credits to generate an avatar. Please purchase more credits.'),
    ).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/generate-avatar')).toHaveLength(0);
  });

  it('should ask for a model, then for a prompt', async () => {
    const { user } = await openCreate({ models: [] });

    promptBox().focus();
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('Model required')).toBeInTheDocument();
    expect(screen.getByText('Please select a custom model first.')).toBeInTheDocument();
  });

  it('should ask for a prompt when it is blank', async () => {
    const { user, fetchMock } = await openCreate();
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    await user.clear(promptBox());
    expect(generateButton()).toBeDisabled();
    await user.type(promptBox(), '   ');
    await user.keyboard('{Control>}{Enter}{/Control}');

    expect(await screen.findByText('Prompt required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a description of how you want your avatar to look.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/generate-avatar')).toHaveLength(0);
  });

  it('should complete a trigger word after "@" from the keyboard', async () => {
    const { user } = await openCreate();
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    await user.clear(promptBox());
    const combobox = screen.getByRole('combobox', { name: 'Prompt' });
    expect(combobox).toBe(promptBox());
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    await user.type(promptBox(), 'photo of @');

    const list = screen.getByRole('listbox', { name: 'Trigger words' });
    expect(combobox).toHaveAttribute('aria-expanded', 'true');
    expect(combobox).toHaveAttribute('aria-controls', list.id);
    const options = within(list).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['word2model-2', 'word1model-1']);
    expect(promptBox()).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');

    await user.keyboard('{ArrowDown}');
    expect(promptBox()).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await user.keyboard('{ArrowDown}');
    expect(promptBox()).toHaveAttribute('aria-activedescendant', options[0]!.id);
    await user.keyboard('{ArrowUp}');
    expect(promptBox()).toHaveAttribute('aria-activedescendant', options[1]!.id);

    await user.keyboard('{Enter}');
    expect(promptBox()).toHaveValue('photo of word1 ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(promptBox()).not.toHaveAttribute('aria-activedescendant');
    expect(combobox).toHaveAttribute('aria-expanded', 'false');

    await user.type(promptBox(), 'in Paris');
    expect(promptBox()).toHaveValue('photo of word1 in Paris');
  });

  it('should filter the "@" list by the fragment, insert with Tab or a click, and close with Escape', async () => {
    const { user } = await openCreate();
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));

    await user.type(promptBox(), '@model-1');
    expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(1);
    await user.keyboard('{Tab}');
    expect(promptBox()).toHaveValue('word2 word1 ');
    expect(promptBox()).toHaveFocus();

    await user.type(promptBox(), '@w');
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(promptBox()).toHaveValue('word2 word1 @w');
    await user.keyboard('{Enter}');
    expect(promptBox()).toHaveValue('word2 word1 @w\n');

    await user.type(promptBox(), '@');
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: /word2/ }));
    expect(promptBox()).toHaveValue('word2 word1 @w\nword2 ');
  });

  it('should say that local mode makes previews', async () => {
    await openCreate({ provider: 'local' });

    expect(await screen.findByText(/Local preview mode:/)).toBeInTheDocument();
  });

  it('should mark the customizer and the prompt for the onboarding tour and fold the Pro Tips', async () => {
    const { user, container } = await openCreate();

    expect(container.querySelector('[data-tour="character-customizer"]')).toHaveTextContent('Character Customizer');
    expect(container.querySelector('[data-tour="prompt-input"]')).toContainElement(promptBox());
    const tips = screen.getByRole('button', { name: /Pro Tips/ });
    expect(tips).toHaveAttribute('aria-expanded', 'false');
    await user.click(tips);
    expect(tips).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/Keep your trigger word in the prompt/)).toBeVisible();
  });
});

describe('CreatePage with a prompt from the scene explorer', () => {
  it('should start the prompt with the trigger word and the chosen scene, once', async () => {
    localStorage.setItem('selectedPrompt', 'astronaut floating above Earth');
    mockApi({
      user: alice,
      handlers: {
        'GET /api/custom-models': () => jsonResponse(twoModels),
        'GET /api/inference/config': () => jsonResponse({ provider: 'replicate' }),
      },
    });
    const { unmount } = renderApp('/create', { strict: true });
    await screen.findByRole('heading', { level: 1, name: 'Create Studio Quality Photos' });

    await waitFor(() => expect(promptBox()).toHaveValue('word2 astronaut floating above Earth'));
    expect(localStorage.getItem('selectedPrompt')).toBeNull();
    unmount();

    renderApp('/create');
    await screen.findByRole('heading', { level: 1, name: 'Create Studio Quality Photos' });
    await waitFor(() => expect(promptBox()).toHaveValue('word2 '));
  });
});
