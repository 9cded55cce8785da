import type { Driver, PopoverDOM } from 'driver.js';
import { markOnboardingCompleted } from '@/lib/onboarding';
import { tourSteps } from './tour-steps';

/** A running tour; `destroy` closes it. */
export type Tour = Pick<Driver, 'destroy'>;

/**
 * Lays a step out as "Step n of 6" above the title, and "Skip tour" opposite Previous and Next:
 * skipping, like completing, means the tour never opens by itself again.
 */
function layOut(popover: PopoverDOM, driver: Driver): void {
  popover.wrapper.insertBefore(popover.progress, popover.title);
  if (driver.isLastStep()) return;
  const skip = document.createElement('button');
  skip.type = 'button';
  skip.className = 'driver-popover-footer-btn likeness-tour-skip';
  skip.textContent = 'Skip tour';
  skip.addEventListener('click', () => {
    markOnboardingCompleted();
    driver.destroy();
  });
  popover.footer.prepend(skip);
}

/**
 * Opens the onboarding tour (SPEC §2 and §4). driver.js and its styles load only now. Completing
 * or skipping it sets `onboarding_completed`; the X, Escape or a click outside only closes it.
 * Keyboard: Tab stays inside the step, the arrow keys move between steps, Escape closes.
 */
export async function startTour(): Promise<Tour> {
  const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
  const [{ driver }] = await Promise.all([
    import('driver.js'),
    import('driver.js/dist/driver.css'),
    import('./tour.css'),
  ]);
  const tour = driver({
    steps: tourSteps,
    animate: !reducedMotion,
    smoothScroll: !reducedMotion,
    showProgress: true,
    progressText: 'Step {{current}} of {{total}}',
    nextBtnText: 'Next',
    prevBtnText: 'Previous',
    doneBtnText: 'Get Started',
    popoverClass: 'likeness-tour',
    overlayOpacity: 0.55,
    stagePadding: 8,
    stageRadius: 18,
    onPopoverRender: (popover, { driver: active }) => layOut(popover, active),
    onDoneClick: (_element, _step, { driver: active }) => {
      markOnboardingCompleted();
      active.destroy();
    },
  });
  tour.drive();
  return tour;
}
