import { useCallback, useEffect, useRef, useState } from 'react';

/** SPEC §4/§9: the bar climbs by random steps and waits at 90% for the answer. */
const CEILING = 90;
const TICK_MS = 300;
/** How long the full bar stays before it hides. */
const DONE_MS = 700;

function randomStep(): number {
  return 4 + Math.random() * 11;
}

/** A progress value for work whose real progress is unknown (an upload through fetch). Null while idle. */
export function useSimulatedProgress() {
  const [value, setValue] = useState<number | null>(null);
  const ticker = useRef<ReturnType<typeof setInterval>>(undefined);
  const hider = useRef<ReturnType<typeof setTimeout>>(undefined);

  const stopTimers = useCallback(() => {
    clearInterval(ticker.current);
    clearTimeout(hider.current);
  }, []);

  const start = useCallback(() => {
    stopTimers();
    setValue(0);
    ticker.current = setInterval(() => {
      setValue((current) => (current === null ? null : Math.min(CEILING, current + randomStep())));
    }, TICK_MS);
  }, [stopTimers]);

  /** The answer arrived: full bar, then hide. */
  const complete = useCallback(() => {
    stopTimers();
    setValue(100);
    hider.current = setTimeout(() => setValue(null), DONE_MS);
  }, [stopTimers]);

  const reset = useCallback(() => {
    stopTimers();
    setValue(null);
  }, [stopTimers]);

  useEffect(() => stopTimers, [stopTimers]);

  return { value, start, complete, reset };
}
