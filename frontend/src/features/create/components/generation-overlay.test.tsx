import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CONFETTI_MS } from './confetti';
import { GenerationOverlay, OVERLAY_FADE_MS } from './generation-overlay';

function stubReducedMotion(reduce: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: reduce && query === '(prefers-reduced-motion: reduce)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })),
  );
}

describe(GenerationOverlay.name, () => {
  it('should draw nothing while hidden', () => {
    render(<GenerationOverlay state="hidden" numOutputs={4} onClose={() => {}} />);

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('should show a modal with a spinner while generating, focused', () => {
    render(<GenerationOverlay state="generating" numOutputs={2} onClose={() => {}} />);

    const dialog = screen.getByRole('dialog', { name: 'Generating your avatars...' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Creating 2 images. This usually takes under a minute.')).toBeInTheDocument();
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(screen.queryByTestId('confetti')).not.toBeInTheDocument();
  });

  it('should celebrate with confetti for 3 seconds on success', () => {
    vi.useFakeTimers();
    stubReducedMotion(false);
    render(<GenerationOverlay state="success" numOutputs={4} onClose={() => {}} />);

    expect(screen.getByRole('dialog', { name: 'Your avatars are ready!' })).toBeInTheDocument();
    expect(screen.getByTestId('confetti')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Done' })).toHaveFocus();

    act(() => vi.advanceTimersByTime(CONFETTI_MS));
    expect(screen.queryByTestId('confetti')).not.toBeInTheDocument();
  });

  it('should leave out the confetti when the user prefers reduced motion', () => {
    stubReducedMotion(true);
    render(<GenerationOverlay state="success" numOutputs={4} onClose={() => {}} />);

    expect(screen.getByRole('dialog', { name: 'Your avatars are ready!' })).toBeInTheDocument();
    expect(screen.queryByTestId('confetti')).not.toBeInTheDocument();
  });

  it('should fade out over 300 ms once inactive, then go', () => {
    vi.useFakeTimers();
    const { rerender } = render(<GenerationOverlay state="generating" numOutputs={4} onClose={() => {}} />);

    rerender(<GenerationOverlay state="hidden" numOutputs={4} onClose={() => {}} />);
    expect(screen.getByTestId('generation-overlay')).toHaveAttribute('data-state', 'closing');
    expect(screen.getByTestId('generation-overlay')).toHaveClass('opacity-0');

    act(() => vi.advanceTimersByTime(OVERLAY_FADE_MS - 1));
    expect(screen.getByTestId('generation-overlay')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('generation-overlay')).not.toBeInTheDocument();
  });

  it('should close the success state with Escape or Done', () => {
    const onClose = vi.fn();
    render(<GenerationOverlay state="success" numOutputs={4} onClose={onClose} />);

    act(() => screen.getByRole('button', { name: 'Done' }).click());
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
