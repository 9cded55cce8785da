import { CircleCheck, Sparkles } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { Confetti } from './confetti';

/** SPEC §9: the overlay fades out over 300 ms once it is no longer active. */
export const OVERLAY_FADE_MS = 300;

export type OverlayState = 'hidden' | 'generating' | 'success';

interface GenerationOverlayProps {
  state: OverlayState;
  numOutputs: number;
  /** Closes the success state early. */
  onClose: () => void;
}

/**
 * SPEC §2: a full-screen progress overlay while a generation runs, with a success state and a
 * confetti burst when the avatars are ready. Focus moves into it and back out when it goes.
 */
export function GenerationOverlay({ state, numOutputs, onClose }: GenerationOverlayProps) {
  // What is drawn: the last active state, kept while the overlay fades out.
  const [shown, setShown] = useState<Exclude<OverlayState, 'hidden'> | null>(state === 'hidden' ? null : state);
  if (state !== 'hidden' && shown !== state) setShown(state);

  useEffect(() => {
    if (state !== 'hidden') return;
    const timer = setTimeout(() => setShown(null), OVERLAY_FADE_MS);
    return () => clearTimeout(timer);
  }, [state]);

  if (!shown) return null;
  return <OverlayPanel shown={shown} fading={state === 'hidden'} numOutputs={numOutputs} onClose={onClose} />;
}

function OverlayPanel({
  shown,
  fading,
  numOutputs,
  onClose,
}: {
  shown: Exclude<OverlayState, 'hidden'>;
  fading: boolean;
  numOutputs: number;
  onClose: () => void;
}) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const success = shown === 'success';

  // Focus moves in on open and goes back where it was when the overlay leaves.
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panelRef.current?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);

  useEffect(() => {
    if (success) closeRef.current?.focus();
  }, [success]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Modal: the focus stays inside (there is at most one control).
    if (event.key === 'Tab') {
      event.preventDefault();
      (closeRef.current ?? panelRef.current)?.focus();
    }
    if (event.key === 'Escape' && success) onClose();
  }

  return (
    // eslint-disable-next-line jsx-a11y-x/no-noninteractive-element-interactions -- a modal dialog handles its own Tab and Escape (the rule allows this on <dialog>, not on role="dialog")
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-busy={!success}
      data-testid="generation-overlay"
      data-state={fading ? 'closing' : shown}
      onKeyDown={onKeyDown}
      className={cn(
        'fixed inset-0 z-[60] grid place-items-center bg-background/85 p-6 backdrop-blur-md',
        'animate-fade-in transition-opacity duration-300 ease-out motion-reduce:transition-none',
        fading && 'pointer-events-none opacity-0',
      )}
    >
      {success ? <Confetti /> : null}
      <div
        ref={panelRef}
        tabIndex={-1}
        className="relative flex w-full max-w-sm flex-col items-center gap-5 rounded-2xl border bg-card p-8 text-center text-card-foreground shadow-xl focus:outline-none"
      >
        {success ? (
          <span className="grid size-16 place-items-center rounded-full bg-emerald-500/15 text-emerald-600 dark:text-emerald-400">
            <CircleCheck className="size-9" aria-hidden="true" />
          </span>
        ) : (
          <span className="relative grid size-16 place-items-center">
            <span aria-hidden="true" className="bg-brand-gradient absolute inset-0 rounded-full opacity-15" />
            <Spinner className="size-10 text-primary" />
            <Sparkles className="absolute size-4 text-fuchsia-500" aria-hidden="true" />
          </span>
        )}
        <div className="flex flex-col gap-1.5" role="status" aria-live="polite">
          <h2 id={titleId} className="text-xl font-semibold tracking-tight">
            {success ? 'Your avatars are ready!' : 'Generating your avatars...'}
          </h2>
          <p className="text-sm text-muted-foreground">
            {success
              ? 'Find them in your gallery.'
              : `Creating ${numOutputs} ${numOutputs === 1 ? 'image' : 'images'}. This usually takes under a minute.`}
          </p>
        </div>
        {success ? (
          <Button ref={closeRef} variant="outline" onClick={onClose} className="w-full">
            Done
          </Button>
        ) : null}
      </div>
    </div>
  );
}
