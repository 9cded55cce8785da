import { useSyncExternalStore, type ReactNode } from 'react';
import type { ToastVariant } from './toast';

/** SPEC §9: at most one toast at a time; a new one replaces the current one. */
const TOAST_LIMIT = 1;
/** How long a dismissed toast stays mounted so its exit animation can play. */
const REMOVE_DELAY_MS = 200;

export interface ToastOptions {
  title: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
}

export interface ToastItem extends ToastOptions {
  id: string;
  open: boolean;
}

let toasts: ToastItem[] = [];
let counter = 0;
const listeners = new Set<() => void>();

function setToasts(next: ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): ToastItem[] {
  return toasts;
}

/** Closes a toast (or every toast) and unmounts it after its exit animation. */
export function dismissToast(id?: string): void {
  setToasts(toasts.map((item) => (id === undefined || item.id === id ? { ...item, open: false } : item)));
  setTimeout(() => {
    setToasts(toasts.filter((item) => item.open || (id !== undefined && item.id !== id)));
  }, REMOVE_DELAY_MS);
}

/** Shows a toast from anywhere (components, mutation callbacks). */
export function toast(options: ToastOptions): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  setToasts([{ ...options, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** Test helper: forget every toast between tests. */
export function resetToasts(): void {
  setToasts([]);
}
