import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '@/components/ui/use-toast';
import { mockApi } from '@/test/render-app';
import { AppProviders } from './providers';

describe('AppProviders', () => {
  it('should load the toaster with the first toast, not with the page, and keep it for the next', async () => {
    mockApi();
    render(
      <AppProviders>
        <p>Page</p>
      </AppProviders>,
    );
    expect(screen.getByText('Page')).toBeInTheDocument();
    // Had the page asked for the toaster, its code would be there and drawn by now.
    await act(() => import('@/components/ui/toaster'));
    expect(screen.queryByRole('region', { name: /F8/ })).not.toBeInTheDocument();

    act(() => {
      toast({ title: 'Logged out', description: 'See you next time!' });
    });

    expect(await screen.findByText('See you next time!')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: /F8/ })).toBeInTheDocument();

    act(() => {
      toast({ title: 'Prompt copied!' });
    });
    expect(screen.getByText('Prompt copied!')).toBeInTheDocument();
  });
});
