import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { avatarsPage, makeAvatar } from '@/test/media-fixtures';
import { alice, errorResponse, jsonResponse, mockApi, renderApp } from '@/test/render-app';

const packages = [
  {
    id: 'starter',
    name: 'Starter Pack',
    description: 'Try it out',
    credits: 50,
    price: 5,
    value: 'No bonus',
    popular: false,
  },
  {
    id: 'creator',
    name: 'Creator Pack',
    description: 'Most loved',
    credits: 125,
    price: 11,
    value: '20% bonus credits',
    popular: true,
  },
  {
    id: 'pro',
    name: 'Professional Pack',
    description: 'For pros',
    credits: 275,
    price: 22,
    value: '25% bonus credits',
    popular: false,
  },
];

describe('LandingPage', () => {
  it('should paint the examples before the session answers, with the sections in order', async () => {
    mockApi({ handlers: { 'GET /api/user': () => new Promise<Response>(() => {}) } });
    renderApp('/');

    const heroPictures = await screen.findByRole('list', { name: 'Example avatars' });
    expect(within(heroPictures).getAllByRole('img')).toHaveLength(4);
    const sections = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(sections.slice(0, 5)).toEqual([
      'From selfies to studio photos in four steps',
      'One model, endless looks',
      'Pay only for what you create',
      'Loved by creators',
      'Ready to Train Your Personal AI Model?',
    ]);
    expect(screen.getByRole('link', { name: /Get Credits - Start at \$5/ })).toHaveAttribute('href', '/credits');
    expect(screen.getByRole('link', { name: /See Real Examples/ })).toHaveAttribute('href', '#examples');
  });

  it('should show the packs the server sells, the Creator Pack marked Best Value', async () => {
    mockApi({ handlers: { 'GET /api/credit-packages': () => jsonResponse(packages) } });
    renderApp('/');

    const creator = await screen.findByRole('article', { name: 'Creator Pack' });
    expect(within(creator).getByText('Best Value')).toBeInTheDocument();
    expect(within(creator).getByText('$11')).toBeInTheDocument();
    expect(within(creator).getByRole('link', { name: 'Buy Credits: Creator Pack' })).toHaveAttribute(
      'href',
      '/credits',
    );
    expect(within(screen.getByRole('article', { name: 'Starter Pack' })).queryByText('Best Value')).toBeNull();
  });

  it('should offer to try again when the packs cannot be loaded', async () => {
    mockApi({ handlers: { 'GET /api/credit-packages': () => errorResponse(503, 'COMMON.UNAVAILABLE', 'Down') } });
    renderApp('/');

    expect(await screen.findByText("We couldn't load the credit packs.")).toBeInTheDocument();
  });

  it('should welcome a signed-in user back with their 4 newest avatars and View All', async () => {
    // The server pages newest first: the first page of four holds the newest of five.
    const newest = [5, 4, 3, 2].map((id) =>
      makeAvatar(id, { createdAt: `2025-06-0${id}T10:00:00.000Z`, promptText: `prompt ${id}` }),
    );
    mockApi({
      user: alice,
      handlers: { 'GET /api/avatars': () => jsonResponse(avatarsPage(newest, { nextCursor: 'next', total: 5 })) },
    });
    renderApp('/');

    expect(await screen.findByText('Welcome back, alice! Here are your recent avatars:')).toBeInTheDocument();
    const shown = screen.getAllByRole('img', { name: /^prompt \d$/ }).map((image) => image.getAttribute('alt'));
    expect(shown).toEqual(['prompt 5', 'prompt 4', 'prompt 3', 'prompt 2']);
    expect(screen.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/gallery');
  });

  it('should keep the examples for a signed-in user without avatars', async () => {
    mockApi({ user: alice, handlers: { 'GET /api/avatars': () => jsonResponse(avatarsPage([])) } });
    renderApp('/');

    await screen.findByRole('link', { name: 'Go to Dashboard' });
    await waitFor(() => expect(screen.getByRole('list', { name: 'Example avatars' })).toBeInTheDocument());
    expect(screen.queryByText(/Welcome back/)).toBeNull();
  });

  it('should copy an example prompt with the toast and the check mark', async () => {
    mockApi();
    const { user } = renderApp('/');
    const copy = await screen.findByRole('button', { name: 'Copy the Astronaut prompt' });

    await user.click(copy);

    expect(await navigator.clipboard.readText()).toMatch(/^astronaut floating in orbit/);
    expect(screen.getByText('Prompt copied!')).toBeInTheDocument();
    expect(screen.getByText('Now you can paste this prompt when creating your own avatar')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Astronaut prompt copied' })).toBeInTheDocument();
  });
});
