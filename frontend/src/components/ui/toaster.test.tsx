import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Toaster } from './toaster';
import { toast } from './use-toast';

describe('Toaster', () => {
  it('should show a title and description', () => {
    render(<Toaster />);

    act(() => {
      toast({ title: 'Logged out', description: 'See you next time!' });
    });

    expect(screen.getByText('Logged out')).toBeInTheDocument();
    expect(screen.getByText('See you next time!')).toBeInTheDocument();
  });

  it('should show at most one toast at a time', () => {
    render(<Toaster />);

    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second', variant: 'destructive' });
    });

    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByText('Second')).toBeInTheDocument();
  });

  it('should offer the F8 hotkey for the notifications region', () => {
    render(<Toaster />);

    expect(screen.getByRole('region', { name: /F8/ })).toBeInTheDocument();
  });
});
