import { useSyncExternalStore } from 'react';

/** SPEC §3: set to "true" once the visitor dismisses the install card; it never shows again. */
export const INSTALL_DISMISSED_KEY = 'pwa-install-dismissed';

/** Chromium's event offering installation (not in TypeScript's DOM library). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferredPrompt: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();

function setDeferredPrompt(event: BeforeInstallPromptEvent | null): void {
  deferredPrompt = event;
  for (const listener of listeners) listener();
}

/**
 * Keeps the browser's install offer for the card to use later. Called once at start-up: the
 * event may fire before any screen has loaded.
 */
export function listenForInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    setDeferredPrompt(event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => setDeferredPrompt(null));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The browser's pending install offer, or null when it has made none (or it was used). */
export function useInstallPrompt(): BeforeInstallPromptEvent | null {
  return useSyncExternalStore(
    subscribe,
    () => deferredPrompt,
    () => null,
  );
}

/** Shows the browser's install dialog; the offer can be used once. */
export async function promptInstall(event: BeforeInstallPromptEvent): Promise<'accepted' | 'dismissed'> {
  setDeferredPrompt(null);
  await event.prompt();
  return (await event.userChoice).outcome;
}
