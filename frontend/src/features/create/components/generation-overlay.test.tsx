import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render as renderUi, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { makeAvatar } from '@/test/media-fixtures';
import { CONFETTI_MS } from './confetti';
import { GenerationOverlay, OVERLAY_FADE_MS } from './generation-overlay';

/** The photos' Download buttons run as mutations. */
function render(ui: ReactNode) {
  const client = new QueryClient();
  return renderUi(ui, {
    wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
  });
}

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
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();

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

  it('should close the success state with Escape or Close', () => {
    const onClose = vi.fn();
    render(<GenerationOverlay state="success" numOutputs={4} onClose={onClose} />);

    act(() => screen.getByRole('button', { name: 'Close' }).click());
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('should show where the job is, with the steps behind it ticked and the time it has taken', () => {
    vi.useFakeTimers({ now: 100_000 });
    render(
      <GenerationOverlay state="generating" numOutputs={2} stage="generating" startedAt={93_000} onClose={() => {}} />,
    );

    expect(screen.getByRole('listitem', { current: 'step' })).toHaveTextContent('Generating');
    expect(screen.getByText('Queued').closest('li')).toHaveAttribute('data-done', 'true');
    expect(screen.getByTestId('generation-elapsed')).toHaveTextContent('0:07');
    expect(screen.getByRole('status')).toHaveTextContent('Generating. 0 of 2 ready.');
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByTestId('generation-elapsed')).toHaveTextContent('1:07');
  });

  it('should show each photo as soon as it is saved, with a place kept for the rest', () => {
    render(
      <GenerationOverlay
        state="generating"
        numOutputs={3}
        stage="saving"
        avatars={[makeAvatar(11)]}
        onClose={() => {}}
      />,
    );

    expect(screen.getByRole('img', { name: /^New avatar 1 of 3/ })).toHaveAttribute('src', makeAvatar(11).imageUrl);
    expect(
      screen.getAllByRole('listitem', { hidden: true }).filter((item) => item.getAttribute('aria-hidden')),
    ).toHaveLength(2);
    expect(screen.getByRole('status')).toHaveTextContent('Saving. 1 of 3 ready.');
  });

  it('should say why "Generate more like this" cannot run', () => {
    render(
      <GenerationOverlay
        state="success"
        numOutputs={1}
        avatars={[makeAvatar(11)]}
        moreBlockedReason="You need 5 credits to generate avatars."
        onClose={() => {}}
        onGenerateMore={() => {}}
      />,
    );

    const more = screen.getByRole('button', { name: /^Generate more like this/ });
    expect(more).toBeDisabled();
    expect(more).toHaveAccessibleDescription('You need 5 credits to generate avatars.');
  });
});
