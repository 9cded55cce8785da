import { GENERATION_COST, type Avatar, type GenerationJobStage } from '@likeness/contracts';
import { Check, CircleCheck, PencilLine, RefreshCw, Sparkles, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { Confetti } from './confetti';
import { ResultImage, ResultSlot } from './result-image';

/** SPEC §9: the overlay fades out over 300 ms once it is no longer active. */
export const OVERLAY_FADE_MS = 300;

export type OverlayState = 'hidden' | 'generating' | 'success';

/** The waiting screen's steps, in the order a job goes through them. */
export const STAGE_STEPS: readonly { stage: GenerationJobStage; label: string }[] = [
  { stage: 'queued', label: 'Queued' },
  { stage: 'generating', label: 'Generating' },
  { stage: 'saving', label: 'Saving' },
];

export interface GenerationOverlayProps {
  state: OverlayState;
  numOutputs: number;
  /** Where the job is while it runs (queued until the server says otherwise). */
  stage?: GenerationJobStage | null;
  /** When the run was asked for (ms since the epoch), for the elapsed time. */
  startedAt?: number | null;
  /** This run's photos, in order, as they are saved. */
  avatars?: readonly Avatar[];
  /** Why "Generate more like this" cannot run now (e.g. too few credits); it is enabled without one. */
  moreBlockedReason?: string | null;
  /** Closes the result; the prompt stays as it was. */
  onClose: () => void;
  /** Closes the result and puts the caret in the prompt, which still holds this run's words. */
  onUsePromptAgain?: () => void;
  /** Starts another run with the same model, prompt and number of images. */
  onGenerateMore?: () => void;
  /** Closes the result and starts a new prompt from the model's trigger word. */
  onStartNew?: () => void;
}

/**
 * SPEC §2: a full-screen overlay while a generation runs, then its result. While waiting it says
 * where the job is (queued, generating, saving) and for how long, with a place for each photo;
 * each photo shows as soon as it is saved. Once done, the photos stay large with download and
 * share, and the next step: more like this, the same prompt again, or a new one. Focus moves in
 * on open, stays inside, and goes back out when it goes.
 */
export function GenerationOverlay(props: GenerationOverlayProps) {
  const { state } = props;
  // What is drawn: the last active state, kept while the overlay fades out.
  const [shown, setShown] = useState<Exclude<OverlayState, 'hidden'> | null>(state === 'hidden' ? null : state);
  if (state !== 'hidden' && shown !== state) setShown(state);

  useEffect(() => {
    if (state !== 'hidden') return;
    const timer = setTimeout(() => setShown(null), OVERLAY_FADE_MS);
    return () => clearTimeout(timer);
  }, [state]);

  if (!shown) return null;
  return <OverlayPanel {...props} shown={shown} fading={state === 'hidden'} />;
}

const FOCUSABLE = 'button:not([disabled]), a[href], select:not([disabled]), [tabindex]:not([tabindex="-1"])';

function OverlayPanel({
  shown,
  fading,
  numOutputs,
  stage,
  startedAt,
  avatars = [],
  moreBlockedReason,
  onClose,
  onUsePromptAgain,
  onGenerateMore,
  onStartNew,
}: GenerationOverlayProps & { shown: Exclude<OverlayState, 'hidden'>; fading: boolean }) {
  const titleId = useId();
  const moreReasonId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const success = shown === 'success';

  // Focus moves in on open and goes back where it was when the overlay leaves, unless the
  // user's next step put it somewhere else meanwhile (the prompt box).
  useEffect(() => {
    const panel = panelRef.current;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel?.focus();
    return () => {
      const now = document.activeElement;
      const focusWasHere = !now || now === document.body || Boolean(panel?.contains(now));
      if (focusWasHere && before?.isConnected) before.focus();
    };
  }, []);

  useEffect(() => {
    if (success) closeRef.current?.focus();
  }, [success]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape' && success) {
      onClose();
      return;
    }
    if (event.key !== 'Tab') return;
    // Modal: Tab and Shift+Tab go round the controls inside.
    const focusable = [...(panelRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    event.preventDefault();
    if (focusable.length === 0) return panelRef.current?.focus();
    const at = focusable.indexOf(document.activeElement as HTMLElement);
    const next = event.shiftKey ? (at <= 0 ? focusable.length - 1 : at - 1) : (at + 1) % focusable.length;
    focusable[next]?.focus();
  }

  const slots = Array.from({ length: numOutputs }, (_, index) => avatars[index] ?? null);
  const ready = avatars.length;

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
        'fixed inset-0 z-[60] overflow-y-auto bg-background/90 backdrop-blur-md',
        'animate-fade-in transition-opacity duration-300 ease-out motion-reduce:transition-none',
        fading && 'pointer-events-none opacity-0',
      )}
    >
      {success ? <Confetti /> : null}
      <div className="flex min-h-full items-center justify-center p-3 sm:p-6">
        <div
          ref={panelRef}
          tabIndex={-1}
          className="relative flex w-full max-w-3xl flex-col gap-5 rounded-2xl border bg-card p-5 text-card-foreground shadow-xl focus:outline-none sm:p-8"
        >
          {success ? (
            <button
              ref={closeRef}
              type="button"
              aria-label="Close"
              onClick={onClose}
              className="absolute top-3 right-3 grid size-9 place-items-center rounded-full text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-5" aria-hidden="true" />
            </button>
          ) : null}

          <div className="flex items-center gap-4 pr-8">
            {success ? (
              <span className="grid size-12 shrink-0 place-items-center rounded-full bg-emerald-500/15 text-emerald-600 dark:text-emerald-400">
                <CircleCheck className="size-7" aria-hidden="true" />
              </span>
            ) : (
              <span className="relative grid size-12 shrink-0 place-items-center">
                <span aria-hidden="true" className="bg-brand-gradient absolute inset-0 rounded-full opacity-15" />
                <Spinner className="size-8 text-primary" />
                <Sparkles className="absolute size-3.5 text-fuchsia-500" aria-hidden="true" />
              </span>
            )}
            <div className="flex min-w-0 flex-col gap-0.5">
              <h2 id={titleId} className="text-xl font-semibold tracking-tight text-balance">
                {success ? 'Your avatars are ready!' : 'Generating your avatars...'}
              </h2>
              <p className="text-sm text-muted-foreground">
                {success
                  ? `${ready} new ${ready === 1 ? 'photo' : 'photos'}, also saved in your gallery.`
                  : `Creating ${numOutputs} ${numOutputs === 1 ? 'image' : 'images'}. This usually takes under a minute.`}
              </p>
            </div>
          </div>

          {success ? null : <StageProgress stage={stage ?? 'queued'} startedAt={startedAt ?? null} />}

          <p role="status" aria-live="polite" className="sr-only">
            {success
              ? `${ready} ${ready === 1 ? 'photo is' : 'photos are'} ready.`
              : `${STAGE_STEPS.find((step) => step.stage === (stage ?? 'queued'))?.label ?? 'Queued'}. ${ready} of ${numOutputs} ready.`}
          </p>

          <ul
            aria-label="Your new photos"
            className={cn('grid gap-3 sm:gap-4', numOutputs === 1 ? 'mx-auto w-full max-w-md' : 'grid-cols-2')}
          >
            {slots.map((avatar, index) =>
              avatar ? (
                <ResultImage key={avatar.id} avatar={avatar} position={index + 1} total={numOutputs} />
              ) : (
                <ResultSlot key={`slot-${index}`} />
              ),
            )}
          </ul>

          {success ? (
            <div className="flex flex-col gap-2 border-t pt-5 sm:flex-row sm:flex-wrap sm:items-center">
              {onGenerateMore ? (
                <Button
                  variant="brand"
                  onClick={onGenerateMore}
                  disabled={Boolean(moreBlockedReason)}
                  aria-describedby={moreBlockedReason ? moreReasonId : undefined}
                >
                  <RefreshCw aria-hidden="true" />
                  Generate more like this ({GENERATION_COST} credits)
                </Button>
              ) : null}
              {onUsePromptAgain ? (
                <Button variant="outline" onClick={onUsePromptAgain}>
                  <PencilLine aria-hidden="true" />
                  Use this prompt again
                </Button>
              ) : null}
              {onStartNew ? (
                <Button variant="ghost" onClick={onStartNew}>
                  <Sparkles aria-hidden="true" />
                  Start a new photo
                </Button>
              ) : null}
              {moreBlockedReason ? (
                <p id={moreReasonId} className="text-sm text-muted-foreground sm:basis-full">
                  {moreBlockedReason}
                </p>
              ) : null}
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** mm:ss, e.g. "0:07", "1:42". */
export function formatElapsed(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

function useElapsedSeconds(startedAt: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (startedAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [startedAt]);
  return startedAt === null ? null : Math.max(0, (now - startedAt) / 1_000);
}

/** Queued → Generating → Saving, the current step spinning, the ones behind it ticked. */
function StageProgress({ stage, startedAt }: { stage: GenerationJobStage; startedAt: number | null }) {
  const elapsed = useElapsedSeconds(startedAt);
  const current = STAGE_STEPS.findIndex((step) => step.stage === stage);
  return (
    <div className="flex flex-col gap-3 rounded-xl border bg-muted/40 p-3 sm:flex-row sm:items-center sm:justify-between sm:px-4">
      <ol aria-label="Progress" className="flex flex-wrap items-center gap-x-1.5 gap-y-1 text-xs sm:gap-2 sm:text-sm">
        {STAGE_STEPS.map((step, index) => {
          const done = index < current;
          const active = index === current;
          return (
            <li
              key={step.stage}
              aria-current={active ? 'step' : undefined}
              data-stage={step.stage}
              data-done={done || undefined}
              className={cn(
                'flex items-center gap-1.5',
                active ? 'font-medium text-foreground' : done ? 'text-foreground/80' : 'text-muted-foreground',
              )}
            >
              {index > 0 ? <span aria-hidden="true" className="mr-0.5 h-px w-2 bg-border sm:w-5" /> : null}
              <span
                aria-hidden="true"
                className={cn(
                  'grid size-5 place-items-center rounded-full border text-[10px]',
                  done && 'border-emerald-500 bg-emerald-500 text-white',
                  active && 'border-primary text-primary',
                )}
              >
                {done ? <Check className="size-3" /> : active ? <Spinner className="size-3" /> : index + 1}
              </span>
              {step.label}
            </li>
          );
        })}
      </ol>
      {elapsed !== null ? (
        <p className="text-xs text-muted-foreground tabular-nums">
          Elapsed <span data-testid="generation-elapsed">{formatElapsed(elapsed)}</span>
        </p>
      ) : null}
    </div>
  );
}
