import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { THEME_STORAGE_KEY, ThemeProvider } from '@/components/theme-provider';
import { ThemeToggle } from './theme-toggle';

function stubSystemTheme(dark: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: dark && query === '(prefers-color-scheme: dark)',
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  );
}

function renderToggle() {
  const user = userEvent.setup();
  render(
    <ThemeProvider>
      <ThemeToggle />
    </ThemeProvider>,
  );
  return user;
}

async function choose(user: ReturnType<typeof userEvent.setup>, option: 'System' | 'Light' | 'Dark') {
  await user.click(screen.getByRole('button', { name: 'Theme' }));
  await user.click(await screen.findByRole('menuitemradio', { name: option }));
}

describe('ThemeToggle', () => {
  it('should follow the OS by default', () => {
    stubSystemTheme(true);
    renderToggle();

    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('should store the choice under ui-theme and apply it to <html>', async () => {
    stubSystemTheme(false);
    const user = renderToggle();
    expect(document.documentElement).not.toHaveClass('dark');

    await choose(user, 'Dark');
    expect(window.localStorage.getItem('ui-theme')).toBe('dark');
    expect(document.documentElement).toHaveClass('dark');

    await choose(user, 'Light');
    expect(window.localStorage.getItem('ui-theme')).toBe('light');
    expect(document.documentElement).not.toHaveClass('dark');

    await choose(user, 'System');
    expect(window.localStorage.getItem('ui-theme')).toBe('system');
  });

  it('should mark the current choice in the menu', async () => {
    stubSystemTheme(false);
    window.localStorage.setItem('ui-theme', 'dark');
    const user = renderToggle();

    expect(document.documentElement).toHaveClass('dark');
    await user.click(screen.getByRole('button', { name: 'Theme' }));
    expect(await screen.findByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'false');
  });
});
