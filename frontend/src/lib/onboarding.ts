import { paths } from '@/config/paths';

/** SPEC §3: set to "true" once the tour is completed or skipped; it then never opens by itself. */
export const ONBOARDING_COMPLETED_KEY = 'onboarding_completed';

/** `/dashboard?tour=start` opens the tour at once, whether or not it was completed. */
export const TOUR_PARAM = 'tour';
export const restartTourUrl = `${paths.dashboard}?${TOUR_PARAM}=start`;

export function isOnboardingCompleted(): boolean {
  try {
    return window.localStorage.getItem(ONBOARDING_COMPLETED_KEY) === 'true';
  } catch {
    return false;
  }
}

export function markOnboardingCompleted(): void {
  try {
    window.localStorage.setItem(ONBOARDING_COMPLETED_KEY, 'true');
  } catch {
    // Storage can be blocked (private mode); the tour then offers itself again next visit.
  }
}
