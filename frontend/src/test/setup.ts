import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { loadToaster } from '@/components/ui/toaster-loader';
import { resetToasts } from '@/components/ui/use-toast';
import { ONBOARDING_COMPLETED_KEY } from '@/lib/onboarding';

// Role queries over a whole app page are slow in jsdom; give async queries room on a busy CI box.
configure({ asyncUtilTimeout: 4000 });

// jsdom lacks a few browser APIs that Radix primitives touch.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
// ScrollRestoration scrolls on navigation; jsdom only logs "not implemented".
window.scrollTo = () => {};
// Previews and downloads use blob: URLs, which jsdom lacks; tests spy on these.
URL.createObjectURL ??= () => 'blob:mock';
URL.revokeObjectURL ??= () => {};

// The app fetches the toaster's code with its first toast; here it is there from the start, so a
// test reads a toast as soon as it is raised (app/providers.test.tsx covers the fetch itself).
beforeAll(async () => {
  await loadToaster();
});

beforeEach(() => {
  window.localStorage.clear();
  // A returning user: the onboarding tour would open over any dashboard test that runs past 2 s.
  window.localStorage.setItem(ONBOARDING_COMPLETED_KEY, 'true');
  document.documentElement.className = '';
});

afterEach(() => {
  cleanup();
  resetToasts();
  vi.useRealTimers();
});
