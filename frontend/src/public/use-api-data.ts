import { useCallback, useEffect, useSyncExternalStore } from 'react';

// What the public pages read from the API, without TanStack Query and zod (their bundle's budget,
// build-tools/public-build.ts): a GET per path shared by every reader on the page, its answer
// checked by a small hand-written guard. The full app reads the same paths with its query client.

/** Throws when an API answer is not what the page can draw; returns it, typed, when it is. */
export type Check<T> = (value: unknown) => T;

type State =
  | { status: 'pending'; data: undefined; error: null }
  | { status: 'success'; data: unknown; error: null }
  | { status: 'error'; data: undefined; error: Error };

export interface ApiData<T> {
  data: T | undefined;
  error: Error | null;
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
  refetch: () => Promise<void>;
}

interface Entry {
  state: State;
  listeners: Set<() => void>;
  loading: Promise<void> | null;
}

const PENDING: State = { status: 'pending', data: undefined, error: null };
const entries = new Map<string, Entry>();

function entryFor(path: string): Entry {
  let entry = entries.get(path);
  if (!entry) {
    entry = { state: PENDING, listeners: new Set(), loading: null };
    entries.set(path, entry);
  }
  return entry;
}

function settle(entry: Entry, state: State): void {
  entry.state = state;
  for (const listener of entry.listeners) listener();
}

/** SPEC §8's wording of a failed call: "401: {body text or status text}". */
async function failure(response: Response): Promise<Error> {
  const body = await response.text().catch(() => '');
  return new Error(`${response.status}: ${body || response.statusText}`);
}

/** `unauthorized`: what a 401 means instead of a failure (e.g. `null`, "not signed in"). */
interface Options<T> {
  unauthorized?: T;
}

async function request<T>(path: string, check: Check<T>, options: Options<T>): Promise<T> {
  const response = await fetch(path, { credentials: 'include' });
  if (response.status === 401 && 'unauthorized' in options) {
    // Read to its end: an unread body holds the request open (and the page never goes quiet).
    await response.text().catch(() => '');
    return options.unauthorized as T;
  }
  if (!response.ok) throw await failure(response);
  return check(await response.json());
}

function load<T>(path: string, check: Check<T>, options: Options<T>): Promise<void> {
  const entry = entryFor(path);
  entry.loading ??= request(path, check, options).then(
    (data) => settle(entry, { status: 'success', data, error: null }),
    (error: unknown) => {
      const cause = error instanceof Error ? error : new Error(String(error));
      settle(entry, { status: 'error', data: undefined, error: cause });
    },
  );
  return entry.loading;
}

/**
 * GET `path` (`null`: not now) once for the page and every reader of it. The first render, on the
 * server and when the page is taken over, is the pending one the prerendered HTML shows.
 * `check` and `options` are read once per path: pass values that do not change.
 */
export function useApiData<T>(path: string | null, check: Check<T>, options: Options<T> = {}): ApiData<T> {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!path) return () => undefined;
      const { listeners } = entryFor(path);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    [path],
  );
  const state = useSyncExternalStore(
    subscribe,
    () => (path ? entryFor(path).state : PENDING),
    () => PENDING,
  );

  useEffect(() => {
    if (path) void load(path, check, options);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once per path (above)
  }, [path]);

  const refetch = useCallback(async () => {
    if (!path) return;
    const entry = entryFor(path);
    entry.loading = null;
    settle(entry, PENDING);
    await load(path, check, options);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once per path (above)
  }, [path]);

  return {
    data: state.data as T | undefined,
    error: state.error,
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
    isError: state.status === 'error',
    refetch,
  };
}

/** Forgets every answer (tests start each page afresh). */
export function resetApiData(): void {
  entries.clear();
}

// The guards' building blocks: each names the field it found wrong.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function expectFields(value: unknown, fields: Record<string, 'string' | 'number' | 'boolean'>, what: string) {
  if (!isRecord(value)) throw new TypeError(`${what}: expected an object`);
  for (const [field, type] of Object.entries(fields)) {
    if (typeof value[field] !== type) throw new TypeError(`${what}: ${field} should be a ${type}`);
  }
  return value;
}
