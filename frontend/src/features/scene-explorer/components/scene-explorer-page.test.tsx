import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { alice, mockApi, renderApp } from '@/test/render-app';

afterEach(() => localStorage.clear());

async function openExplorer(user = alice as typeof alice | null) {
  mockApi({ user });
  const app = renderApp('/scene-explorer');
  await screen.findByRole('heading', { level: 1, name: 'Transformation Scene Explorer' });
  return app;
}

describe('SceneExplorerPage', () => {
  it('should wrap around the scenes with the arrows and count them', async () => {
    const { user } = await openExplorer(null);
    const panel = screen.getByRole('tabpanel', { name: 'Professional' });
    expect(within(panel).getByText('Scene 1 of 5')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Previous scene' }));
    expect(within(panel).getByText('Scene 5 of 5')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Next scene' }));
    expect(within(panel).getByText('Scene 1 of 5')).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { level: 3, name: 'Corporate Headshot' })).toBeInTheDocument();
  });

  it('should keep a used prompt for the create page and send a signed-in user to the dashboard', async () => {
    const { user, router } = await openExplorer();
    await within(screen.getByRole('main')).findByRole('link', { name: 'Go to Dashboard' });
    await user.click(screen.getByRole('tab', { name: 'Fantasy' }));
    const panel = screen.getByRole('tabpanel', { name: 'Fantasy' });

    await user.click(within(panel).getByRole('button', { name: 'Use This Prompt' }));

    // user-event's clipboard stands in for the browser's.
    const prompt = await navigator.clipboard.readText();
    expect(prompt).toMatch(/^elven ranger/);
    expect(localStorage.getItem('selectedPrompt')).toBe(prompt);
    expect(await screen.findByText('Prompt copied!')).toBeInTheDocument();
    // The next screen's code loads first (every route is lazy).
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('should send a visitor who uses a prompt to the auth screen, and offer "Get Started Now"', async () => {
    const { user, router } = await openExplorer(null);
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Get Started Now' })).toHaveAttribute(
      'href',
      '/auth',
    );

    await user.click(within(screen.getByRole('tabpanel')).getByRole('button', { name: 'Use This Prompt' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(localStorage.getItem('selectedPrompt')).toMatch(/^professional corporate headshot/);
  });

  it('should show the copied marker after Copy Prompt', async () => {
    const { user } = await openExplorer();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    const panel = screen.getByRole('tabpanel');

    await user.click(within(panel).getByRole('button', { name: 'Copy Prompt' }));

    expect(within(panel).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(localStorage.getItem('selectedPrompt')).toBeNull();
  });
});
