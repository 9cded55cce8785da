import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isOnboardingCompleted, TOUR_PARAM } from '@/lib/onboarding';
import type { Tour } from '../tour/start-tour';

/** SPEC §4: the tour opens this long after the dashboard first loads. */
export const TOUR_DELAY_MS = 2000;

/**
 * Opens the onboarding tour 2 s after the dashboard loads unless it was completed or skipped
 * before, or at once when the Help tab asked for it (`?tour=start`). Leaving the dashboard
 * closes it.
 */
export function useOnboardingTour(): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const [restartRequested] = useState(() => searchParams.get(TOUR_PARAM) === 'start');

  // The request is used once: a reload of the dashboard does not reopen a tour closed since.
  useEffect(() => {
    if (!searchParams.has(TOUR_PARAM)) return;
    setSearchParams(
      (params) => {
        params.delete(TOUR_PARAM);
        return params;
      },
      { replace: true },
    );
  }, [searchParams, setSearchParams]);

  useEffect(() => {
    if (!restartRequested && isOnboardingCompleted()) return;
    let tour: Tour | undefined;
    let left = false;
    const timer = window.setTimeout(
      () => {
        void import('../tour/start-tour')
          .then(({ startTour }) => startTour())
          .then((started) => {
            if (left) started.destroy();
            else tour = started;
          });
      },
      restartRequested ? 0 : TOUR_DELAY_MS,
    );
    return () => {
      left = true;
      window.clearTimeout(timer);
      tour?.destroy();
    };
  }, [restartRequested]);
}
