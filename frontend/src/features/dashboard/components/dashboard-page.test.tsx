import type { Avatar, CurrentUser } from '@likeness/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatCardDate } from '@/lib/avatars/format-date';
import { avatarsPage, makeAvatar } from '@/test/media-fixtures';
import { alice, jsonResponse, mockApi, renderApp, type ApiHandlers } from '@/test/render-app';
import { completedJob, makeJob } from '@/test/generation-fixtures';
import { makeModel } from '@/test/training-fixtures';

async function openDashboard({
  user = alice,
  avatars = [],
  handlers = {},
}: { user?: CurrentUser; avatars?: Avatar[]; handlers?: ApiHandlers } = {}) {
  mockApi({
    user,
    handlers: {
      'GET /api/avatars': () => jsonResponse(avatarsPage(avatars)),
      'GET /api/custom-models': () => jsonResponse([]),
      'GET /api/generation-jobs': () => jsonResponse([]),
      'GET /api/uploaded-images': () => jsonResponse([]),
      ...handlers,
    },
  });
  const app = renderApp('/dashboard');
  await screen.findByRole('heading', { level: 1, name: `Welcome, ${user.username}!` });
  return app;
}

/** The get-started guide once what the account holds has arrived (it is drawn before, busy). */
async function settledGuide() {
  const guide = await screen.findByRole('region', { name: 'Get Started' });
  await waitFor(() => expect(guide).not.toHaveAttribute('aria-busy'));
  return within(guide);
}

function recentAvatars() {
  return within(screen.getByRole('region', { name: 'Recent Avatars' }));
}

/** The value shown under a quick-stat label. */
function stat(label: string) {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

describe('DashboardPage', () => {
  it('should guide an account with no avatars through buy, upload, train and create, "Get Credits to Start" first', async () => {
    await openDashboard({ user: { ...alice, credits: 0 } });

    const guide = await settledGuide();
    const steps = guide.getAllByRole('listitem').map((item) => within(item).getByRole('link'));
    expect(steps.map((step) => step.getAttribute('href'))).toEqual(['/credits', '/models', '/models', '/create']);
    expect(steps[0]).toHaveTextContent(/Next step.*Buy credits.*You have 0 credits/);
    expect(steps[0]).toHaveAttribute('aria-current', 'step');
    for (const later of steps.slice(1)) expect(later).toHaveTextContent(/^Later/);
    expect(guide.getByText('0 of 4 done')).toBeInTheDocument();
    expect(guide.getByRole('link', { name: 'Get Credits to Start' })).toHaveAttribute('href', '/credits');
    expect(screen.queryByRole('link', { name: 'Buy More Credits' })).not.toBeInTheDocument();
    expect(screen.queryByText('Avatars Created')).not.toBeInTheDocument();
  });

  it('should tick the steps the account has done and point at the next', async () => {
    await openDashboard({
      user: { ...alice, credits: 25 },
      handlers: {
        'GET /api/uploaded-images': () => jsonResponse([]),
        'GET /api/custom-models': () => jsonResponse([makeModel(1, { status: 'training' })]),
      },
    });

    const guide = await settledGuide();
    const steps = guide.getAllByRole('listitem').map((item) => within(item).getByRole('link'));
    expect(steps[0]).toHaveTextContent(/^Done/);
    expect(steps[1]).toHaveTextContent(/^Done/);
    expect(steps[2]).toHaveTextContent(/In progress.*Your model is training/);
    expect(steps[2]).toHaveAttribute('aria-current', 'step');
    expect(guide.getByText('2 of 4 done')).toBeInTheDocument();
  });

  it('should show the credits card and count the avatars, the completed models and the completed generations', async () => {
    await openDashboard({
      user: { ...alice, credits: 40 },
      avatars: [1, 2, 3, 4, 5, 6, 7].map((id) => makeAvatar(id)),
      handlers: {
        'GET /api/custom-models': () =>
          jsonResponse([
            makeModel(1),
            makeModel(2, { status: 'training' }),
            makeModel(3, { status: 'failed', failureReason: 'Boom' }),
            makeModel(4),
            makeModel(5, { status: 'pending' }),
          ]),
        'GET /api/generation-jobs': () =>
          jsonResponse([
            makeJob({ id: 'e1d5a3b0-0000-4000-8000-000000000004' }),
            completedJob([1, 2], { id: 'e1d5a3b0-0000-4000-8000-000000000003' }),
            makeJob({ id: 'e1d5a3b0-0000-4000-8000-000000000002', status: 'failed', failureReason: 'Boom' }),
            completedJob([3], { id: 'e1d5a3b0-0000-4000-8000-000000000001' }),
          ]),
      },
    });

    expect(await screen.findByRole('link', { name: 'Buy More Credits' })).toHaveAttribute('href', '/credits');
    expect(screen.queryByRole('link', { name: 'Get Credits to Start' })).not.toBeInTheDocument();
    await waitFor(() => expect(stat('Trained Models')).toBe('2'));
    await waitFor(() => expect(stat('Generations')).toBe('2'));
    expect(stat('Avatars Created')).toBe('7');
    // The balance once: in the credits card, not again among the stats.
    expect(within(screen.getByRole('region', { name: 'Available credits' })).getByText('40')).toBeInTheDocument();
    expect(screen.queryByText('Credits Left')).not.toBeInTheDocument();
  });

  it('should link the action cards to the create page, the gallery and the models page', async () => {
    await openDashboard();

    expect(screen.getByRole('link', { name: /^Create Avatar/ })).toHaveAttribute('href', '/create');
    expect(screen.getByRole('link', { name: /^Your Gallery/ })).toHaveAttribute('href', '/gallery');
    expect(screen.getByRole('link', { name: /^Custom Models/ })).toHaveAttribute('href', '/models');
  });

  it('should show the newest avatars first with an undated one last, badged "Recent", and no View All', async () => {
    await openDashboard({
      avatars: [makeAvatar(2, { createdAt: null }), makeAvatar(4), makeAvatar(6), makeAvatar(5)],
    });

    const recent = recentAvatars();
    const images = await recent.findAllByRole('img');
    expect(images.map((image) => image.getAttribute('alt'))).toEqual([
      'ada as an astronaut, portrait 6',
      'ada as an astronaut, portrait 5',
      'ada as an astronaut, portrait 4',
      'ada as an astronaut, portrait 2',
    ]);
    const tiles = recent.getAllByRole('listitem');
    expect(within(tiles[3]!).getByText('Recent')).toBeInTheDocument();
    expect(within(tiles[0]!).queryByText('Recent')).not.toBeInTheDocument();
    expect(within(tiles[0]!).getByText(formatCardDate(makeAvatar(6).createdAt))).toBeInTheDocument();
    expect(recent.getAllByRole('link', { name: 'View' })[0]).toHaveAttribute('href', '/gallery');
    expect(recent.queryByRole('link', { name: /View All/ })).not.toBeInTheDocument();
  });

  it('should show only the 6 newest avatars and a View All link when there are more', async () => {
    await openDashboard({ avatars: [3, 8, 1, 5, 7, 2, 6, 4].map((id) => makeAvatar(id)) });

    const recent = recentAvatars();
    const images = await recent.findAllByRole('img');
    expect(images.map((image) => image.getAttribute('alt'))).toEqual(
      [8, 7, 6, 5, 4, 3].map((id) => `ada as an astronaut, portrait ${id}`),
    );
    expect(recent.getByRole('link', { name: /View All/ })).toHaveAttribute('href', '/gallery');
  });

  it('should cut the overlay preview to the first 50 characters of the prompt', async () => {
    const promptText = 'a very long prompt about ada walking on the moon in a shiny silver suit';
    await openDashboard({ avatars: [makeAvatar(1, { promptText })] });

    const image = await recentAvatars().findByRole('img');
    expect(image).toHaveAttribute('alt', `${promptText.slice(0, 50).trimEnd()}…`);
  });

  it('should say "Loading your avatars..." while they load', async () => {
    await openDashboard({ handlers: { 'GET /api/avatars': () => new Promise<Response>(() => {}) } });

    expect(recentAvatars().getByRole('status')).toHaveTextContent('Loading your avatars...');
  });

  it("should hold the guide's place from the first paint, its steps loading, until the account's lists arrive", async () => {
    let answerAvatars: (response: Response) => void = () => {};
    await openDashboard({
      user: { ...alice, credits: 0 },
      handlers: { 'GET /api/avatars': () => new Promise<Response>((resolve) => (answerAvatars = resolve)) },
    });

    const guide = screen.getByRole('region', { name: 'Get Started' });
    expect(guide).toHaveAttribute('aria-busy', 'true');
    expect(within(guide).getByRole('status')).toHaveTextContent('Loading your creative space...');
    const steps = within(guide)
      .getAllByRole('listitem')
      .map((item) => within(item).getByRole('link'));
    expect(steps.map((step) => step.getAttribute('href'))).toEqual(['/credits', '/models', '/models', '/create']);
    expect(steps[0]).not.toHaveAttribute('aria-current');
    // The action cards (the tour's targets) are where they will stay.
    expect(screen.getByRole('link', { name: /^Create Avatar/ })).toBeInTheDocument();

    answerAvatars(jsonResponse(avatarsPage([])));

    await waitFor(() => expect(guide).not.toHaveAttribute('aria-busy'));
    expect(within(guide).getByText('0 of 4 done')).toBeInTheDocument();
    expect(within(guide).getByRole('link', { name: 'Get Credits to Start' })).toHaveAttribute('href', '/credits');
    expect(screen.getByRole('region', { name: 'Get Started' })).toBe(guide);
  });

  it("should hold the credits card's place on a later visit of an account that has avatars", async () => {
    const { unmount } = await openDashboard({ user: { ...alice, credits: 40 }, avatars: [makeAvatar(1)] });
    await screen.findByRole('link', { name: 'Buy More Credits' });
    unmount();

    await openDashboard({
      user: { ...alice, credits: 40 },
      handlers: { 'GET /api/avatars': () => new Promise<Response>(() => {}) },
    });

    expect(within(screen.getByRole('region', { name: 'Available credits' })).getByText('40')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Get Started' })).not.toBeInTheDocument();
  });

  it('should show the empty state with "Create Your First Avatar" when there are no avatars', async () => {
    await openDashboard();

    const recent = recentAvatars();
    expect(await recent.findByText('No avatars created yet')).toBeInTheDocument();
    expect(recent.getByRole('link', { name: 'Create Your First Avatar' })).toHaveAttribute('href', '/create');
    expect(recent.queryByRole('link', { name: /View All/ })).not.toBeInTheDocument();
  });

  it('should copy the prompt from the overlay, reachable by keyboard, and say so', async () => {
    const { user } = await openDashboard({ avatars: [makeAvatar(1), makeAvatar(2)] });

    const [copy] = await recentAvatars().findAllByRole('button', { name: 'Copy' });
    copy!.focus();
    await user.keyboard('{Enter}');

    expect(await screen.findByText('Prompt copied')).toBeInTheDocument();
    expect(screen.getByText('Avatar prompt copied to clipboard.')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('ada as an astronaut, portrait 2');
  });

  it('should ask for a failing avatar list once, not again and again, and still let the user leave', async () => {
    const fetchMock = mockApi({ user: alice });
    const avatarAsks = () => fetchMock.mock.calls.filter(([input]) => String(input).startsWith('/api/avatars')).length;
    const { router } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' });
    await waitFor(() => expect(avatarAsks()).toBeGreaterThan(0));

    await router.navigate('/gallery');
    await waitFor(() => expect(router.state.location.pathname).toBe('/gallery'));
    // The dashboard's first load and the gallery's own ask; a loop would have asked hundreds of times.
    expect(avatarAsks()).toBeLessThan(10);
  });
});
