import type { ComponentType } from 'react';

// Toasts only follow something the user did: the toaster's Radix code loads when the user does
// something that may end in a toast (a mutation starts) or with the first toast, not with the page.
let loaded: ComponentType | undefined;

/** Fetches the toaster's code (once): when a mutation starts, with a first toast, and in tests up front. */
export function loadToaster(): Promise<ComponentType> {
  return import('./toaster').then(({ Toaster }) => (loaded = Toaster));
}

/** The toaster, when its code has arrived. */
export function loadedToaster(): ComponentType | undefined {
  return loaded;
}
