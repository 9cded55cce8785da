import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { completedJob, JOB_ID, makeJob } from '@/test/generation-fixtures';
import { FakeEventSource } from '@/test/fake-event-source';
import { LiveEventsProvider, useLiveUpdates } from './live-events';

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
  return { result, stale, source: FakeEventSource.last!, client };
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

  it("should write a running job's stage and kept avatars into its query, making nothing stale", () => {
    const { stale, source, client } = renderLive();
    const jobKey = [`/api/generation-jobs/${JOB_ID}`];
    client.setQueryData(jobKey, makeJob());
    act(() => source.open());

    act(() => source.emit('generation.progress', { jobId: JOB_ID, stage: 'generating', avatarIds: [] }));
    expect(client.getQueryData(jobKey)).toEqual(makeJob({ stage: 'generating' }));
    act(() => source.emit('generation.progress', { jobId: JOB_ID, stage: 'saving', avatarIds: [31, 32] }));
    expect(client.getQueryData(jobKey)).toEqual(makeJob({ stage: 'saving', avatarIds: [31, 32] }));
    expect(stale()).toEqual([]);
  });

  it('should keep the end of a job that has ended, and leave alone a job no screen follows', () => {
    const { stale, source, client } = renderLive();
    const jobKey = [`/api/generation-jobs/${JOB_ID}`];
    client.setQueryData(jobKey, completedJob([31, 32]));
    act(() => source.open());

    act(() => source.emit('generation.progress', { jobId: JOB_ID, stage: 'saving', avatarIds: [31] }));
    const otherJob = '0c7e5e5a-1f1b-4d43-8a5e-9d6f0b4c2a10';
    act(() => source.emit('generation.progress', { jobId: otherJob, stage: 'generating', avatarIds: [] }));
    expect(client.getQueryData(jobKey)).toEqual(completedJob([31, 32]));
    expect(client.getQueryState([`/api/generation-jobs/${otherJob}`])).toBeUndefined();
    expect(stale()).toEqual([]);
  });

  it('should read the jobs again when a progress event cannot be read', () => {
    const { stale, source } = renderLive();
    act(() => source.open());
    act(() => source.emit('generation.progress', { jobId: 'not-a-job', stage: 'dreaming' }));
    expect(stale()).toEqual(['["/api/generation-jobs/7"]']);
  });

  it('should read everything again when told to resync', () => {
    const { stale, source } = renderLive();
    act(() => source.emit('resync'));
    expect(stale()).toHaveLength(6);
  });
});
