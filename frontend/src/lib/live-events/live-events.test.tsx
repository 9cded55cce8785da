import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { LiveEventsProvider, useLiveUpdates } from './live-events';

/** Enough of EventSource for the provider: tests open it, fail it and send it events. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static last: FakeEventSource | undefined;
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private readonly listeners = new Map<string, (() => void)[]>();

  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }

  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }

  drop(readyState: number) {
    this.readyState = readyState;
    this.onerror?.();
  }

  emit(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
}

function renderLive() {
  vi.stubGlobal('EventSource', FakeEventSource);
  const client = createQueryClient();
  const queries = ['/api/custom-models', '/api/avatars', '/api/user', '/api/generation-jobs/7', '/api/uploaded-images'];
  for (const path of queries) client.setQueryData([path], []);
  client.setQueryData(['/api/avatars', { page: 2 }], []);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <LiveEventsProvider>{children}</LiveEventsProvider>
    </QueryClientProvider>
  );
  const { result } = renderHook(() => useLiveUpdates(), { wrapper });
  const stale = () =>
    client
      .getQueryCache()
      .getAll()
      .filter((query) => query.isStale())
      .map((query) => JSON.stringify(query.queryKey))
      .sort();
  return { result, stale, source: FakeEventSource.last! };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe(LiveEventsProvider.name, () => {
  it('should say the stream is live only while it is open', () => {
    const { result, source } = renderLive();
    expect(source.url).toBe('/api/events');
    expect(result.current).toBe(false);
    act(() => source.open());
    expect(result.current).toBe(true);
    act(() => source.drop(FakeEventSource.CONNECTING));
    expect(result.current).toBe(false);
  });

  it('should make stale exactly the lists an event changes, every page of them', () => {
    const { stale, source } = renderLive();
    act(() => source.open());
    act(() => source.emit('generation.completed'));
    expect(stale()).toEqual(['["/api/avatars",{"page":2}]', '["/api/avatars"]', '["/api/generation-jobs/7"]']);
    act(() => source.emit('credits.changed'));
    expect(stale()).toContain('["/api/user"]');
    expect(stale()).not.toContain('["/api/custom-models"]');
  });

  it('should read everything again when told to resync', () => {
    const { stale, source } = renderLive();
    act(() => source.emit('resync'));
    expect(stale()).toHaveLength(6);
  });
});
