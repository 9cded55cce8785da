import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { avatarsPage, makeAvatar } from '@/test/media-fixtures';
import { alice, jsonResponse, mockApi, renderApp } from '@/test/render-app';

async function openDashboard(credits: number) {
  mockApi({ user: { ...alice, credits } });
  const app = renderApp('/dashboard');
  await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' });
  const [headerNav, bottomNav] = screen.getAllByRole('navigation', { name: 'Main' });
  return { ...app, headerNav: within(headerNav!), bottomNav: within(bottomNav!) };
}

describe('AppLayout', () => {
  it('should highlight Credits in the bottom navigation while the balance is below 30', async () => {
    const { bottomNav } = await openDashboard(29);

    const credits = bottomNav.getByRole('link', { name: 'Credits, low balance: 29 credits' });
    expect(credits).toHaveAttribute('href', '/credits');
    expect(credits).toHaveAttribute('data-highlighted', 'true');
    expect(credits).toHaveClass('text-amber-700');
    expect(bottomNav.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/dashboard');
  });

  it('should show Credits plainly from a balance of 30', async () => {
    const { bottomNav } = await openDashboard(30);

    const credits = bottomNav.getByRole('link', { name: 'Credits' });
    expect(credits).toHaveAttribute('href', '/credits');
    expect(credits).not.toHaveAttribute('data-highlighted');
    expect(credits).not.toHaveClass('text-amber-700');
  });

  it('should list Home, Create, Gallery and Models in the header and add Credits in the bottom bar', async () => {
    const { headerNav, bottomNav } = await openDashboard(40);

    const linksOf = (nav: typeof headerNav) =>
      nav.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
    expect(linksOf(headerNav)).toEqual([
      ['Home', '/dashboard'],
      ['Create', '/create'],
      ['Gallery', '/gallery'],
      ['Models', '/models'],
    ]);
    expect(linksOf(bottomNav)).toEqual([
      ['Home', '/dashboard'],
      ['Create', '/create'],
      ['Gallery', '/gallery'],
      ['Models', '/models'],
      ['Credits', '/credits'],
    ]);
  });

  it('should keep Credits out of the header navigation and link the balance badge to /credits', async () => {
    const { headerNav } = await openDashboard(5);

    expect(headerNav.queryByRole('link', { name: /Credits/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '5 credits: buy credits' })).toHaveAttribute('href', '/credits');
  });

  it('should open the credits page from the bottom navigation and mark it current', async () => {
    mockApi({ user: alice });
    const { user, router } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Welcome, alice!' });

    await user.click(screen.getByRole('link', { name: 'Credits, low balance: 5 credits' }));
    await new Promise((r) => setTimeout(r, 3000));
    expect(await screen.findByRole('heading', { level: 1, name: 'Buy Credits' })).toBeInTheDocument();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Buy Credits' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/credits');
    expect(screen.getByRole('link', { name: 'Credits, low balance: 5 credits' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});

describe('DashboardPage', () => {
  it('should offer "Buy More Credits" on the credits card once there are avatars', async () => {
    mockApi({
      user: { ...alice, credits: 5 },
      handlers: { 'GET /api/avatars': () => jsonResponse(avatarsPage([makeAvatar(1)])) },
    });
    renderApp('/dashboard');

    expect(await screen.findByRole('link', { name: 'Buy More Credits' })).toHaveAttribute('href', '/credits');
  });
});
