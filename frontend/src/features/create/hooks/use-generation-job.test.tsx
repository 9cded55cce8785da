import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveEventsProvider } from '@/lib/live-events/live-events';
import { createQueryClient } from '@/lib/query-client';
import { FakeEventSource } from '@/test/fake-event-source';
import { completedJob, JOB_ID, makeJob } from '@/test/generation-fixtures';
import { callsTo, errorResponse, jsonResponse, mockApi } from '@/test/render-app';
import { JOB_POLL_INTERVAL_MS, JOB_POLL_TIMEOUT_MS, useGenerationJob } from './use-generation-job';

const JOB_PATH = `/api/generation-jobs/${JOB_ID}`;

function handlers() {
  return { onCompleted: vi.fn(), onFailed: vi.fn(), onError: vi.fn(), onTimedOut: vi.fn() };
}

function renderJob(
  jobId: string | null,
  callbacks: ReturnType<typeof handlers>,
  options = { intervalMs: 20, timeoutMs: 5_000 },
) {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(({ id }) => useGenerationJob(id, callbacks, options), { wrapper, initialProps: { id: jobId } });
}

/**
 * The hook under the live events provider, its stream a fake: it starts following no job, so the
 * test opens (or not) the stream first, then gives it `JOB_ID` with `follow()`.
 */
function renderLiveJob(callbacks: ReturnType<typeof handlers>, options = { intervalMs: 20, timeoutMs: 5_000 }) {
  vi.stubGlobal('EventSource', FakeEventSource);
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <LiveEventsProvider>{children}</LiveEventsProvider>
    </QueryClientProvider>
  );
  const rendered = renderHook(({ id }) => useGenerationJob(id, callbacks, options), {
    wrapper,
    initialProps: { id: null as string | null },
  });
  return { ...rendered, source: FakeEventSource.last!, follow: () => rendered.rerender({ id: JOB_ID }) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Answers the job's polls with the given jobs in turn, the last one from then on. */
function answerPolls(...answers: (() => Response)[]) {
  let call = 0;
  return mockApi({ handlers: { [`GET ${JOB_PATH}`]: () => answers[Math.min(call++, answers.length - 1)]!() } });
}

describe(useGenerationJob.name, () => {
  it('should poll every 3 seconds for at most 120 seconds by default (SPEC §9)', () => {
    expect(JOB_POLL_INTERVAL_MS).toBe(3_000);
    expect(JOB_POLL_TIMEOUT_MS).toBe(120_000);
  });

  it('should follow nothing without a job', () => {
    const fetchMock = answerPolls(() => jsonResponse(makeJob()));
    const callbacks = handlers();

    const { result } = renderJob(null, callbacks);

    expect(result.current.isPolling).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('should poll while the job is pending and report it once when it completes', async () => {
    const fetchMock = answerPolls(
      () => jsonResponse(makeJob()),
      () => jsonResponse(makeJob()),
      () => jsonResponse(completedJob([7, 8])),
    );
    const callbacks = handlers();

    const { result } = renderJob(JOB_ID, callbacks);
    expect(result.current.isPolling).toBe(true);

    await waitFor(() => expect(callbacks.onCompleted).toHaveBeenCalledTimes(1));
    expect(callbacks.onCompleted).toHaveBeenCalledWith(
      expect.objectContaining({ status: 'completed', avatarIds: [7, 8] }),
    );
    expect(result.current.isPolling).toBe(false);
    expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(3);

    // Polling has stopped.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(3);
    expect(callbacks.onCompleted).toHaveBeenCalledTimes(1);
    expect(callbacks.onFailed).not.toHaveBeenCalled();
  });

  it('should stop and report a failed job with its reason', async () => {
    answerPolls(
      () => jsonResponse(makeJob()),
      () => jsonResponse(makeJob({ status: 'failed', failureReason: 'The model could not be loaded.' })),
    );
    const callbacks = handlers();

    const { result } = renderJob(JOB_ID, callbacks);

    await waitFor(() => expect(callbacks.onFailed).toHaveBeenCalledTimes(1));
    expect(callbacks.onFailed).toHaveBeenCalledWith(
      expect.objectContaining({ failureReason: 'The model could not be loaded.' }),
    );
    expect(result.current.isPolling).toBe(false);
  });

  it('should stop at the first failed poll and report its error', async () => {
    const fetchMock = answerPolls(
      () => jsonResponse(makeJob()),
      () => errorResponse(500, 'COMMON.INTERNAL', 'The generation service is not answering.'),
    );
    const callbacks = handlers();

    const { result } = renderJob(JOB_ID, callbacks);

    await waitFor(() => expect(callbacks.onError).toHaveBeenCalledTimes(1));
    expect(callbacks.onError.mock.calls[0]![0]).toMatchObject({ status: 500 });
    expect(result.current.isPolling).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(2);
  });

  it('should give up after the cutoff while the job is still pending', async () => {
    const fetchMock = answerPolls(() => jsonResponse(makeJob()));
    const callbacks = handlers();

    const { result } = renderJob(JOB_ID, callbacks, { intervalMs: 20, timeoutMs: 150 });

    await waitFor(() => expect(callbacks.onTimedOut).toHaveBeenCalledTimes(1));
    expect(result.current.isPolling).toBe(false);
    const polls = callsTo(fetchMock, 'GET', JOB_PATH).length;
    expect(polls).toBeGreaterThan(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(polls);
    expect(callbacks.onCompleted).not.toHaveBeenCalled();
  });

  it('should poll every interval with fake timers too', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = answerPolls(() => jsonResponse(makeJob()));
    const callbacks = handlers();

    renderJob(JOB_ID, callbacks, { intervalMs: JOB_POLL_INTERVAL_MS, timeoutMs: JOB_POLL_TIMEOUT_MS });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(1));

    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(2));
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(3));

    await vi.advanceTimersByTimeAsync(JOB_POLL_TIMEOUT_MS);
    await waitFor(() => expect(callbacks.onTimedOut).toHaveBeenCalledTimes(1));
  });

  describe('with the live events', () => {
    it("should not poll while the stream is open, showing the job's progress and end from its events", async () => {
      const fetchMock = answerPolls(
        () => jsonResponse(makeJob()),
        () => jsonResponse(completedJob([7, 8])),
      );
      const callbacks = handlers();
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const { result, source, follow } = renderLiveJob(callbacks, {
        intervalMs: JOB_POLL_INTERVAL_MS,
        timeoutMs: JOB_POLL_TIMEOUT_MS,
      });
      act(() => source.open());
      follow();
      await waitFor(() => expect(result.current.job?.stage).toBe('queued'));

      // A minute passes: no poll.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(1);
      act(() => source.emit('generation.progress', { jobId: JOB_ID, stage: 'generating', avatarIds: [] }));
      await waitFor(() =>
        expect(result.current.job).toMatchObject({ status: 'pending', stage: 'generating', avatarIds: [] }),
      );
      act(() => source.emit('generation.progress', { jobId: JOB_ID, stage: 'saving', avatarIds: [7] }));
      await waitFor(() => expect(result.current.job).toMatchObject({ stage: 'saving', avatarIds: [7] }));
      expect(result.current.isPolling).toBe(true);
      expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(1);

      // Its end is read once, when the stream says so.
      act(() => source.emit('generation.completed', { jobId: JOB_ID, avatarIds: [7, 8] }));
      await waitFor(() => expect(callbacks.onCompleted).toHaveBeenCalledTimes(1));
      expect(callbacks.onCompleted).toHaveBeenCalledWith(expect.objectContaining({ avatarIds: [7, 8] }));
      expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(2);
    });

    it('should poll while the stream is down, and stop once it is open again', async () => {
      const fetchMock = answerPolls(() => jsonResponse(makeJob({ stage: 'generating' })));
      const callbacks = handlers();
      const { result, source, follow } = renderLiveJob(callbacks);
      act(() => source.open());
      follow();
      await waitFor(() => expect(result.current.job?.stage).toBe('generating'));

      act(() => source.drop(FakeEventSource.CONNECTING));
      await waitFor(() => expect(callsTo(fetchMock, 'GET', JOB_PATH).length).toBeGreaterThan(3));

      act(() => source.open());
      await pause(60);
      const polls = callsTo(fetchMock, 'GET', JOB_PATH).length;
      await pause(400);
      expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(polls);
      expect(result.current.isPolling).toBe(true);
    });

    it('should read the job once when the stream opens after it was first read', async () => {
      const fetchMock = answerPolls(
        () => jsonResponse(makeJob()),
        () => jsonResponse(makeJob({ stage: 'saving', avatarIds: [7] })),
      );
      const callbacks = handlers();
      const { result, source, follow } = renderLiveJob(callbacks, { intervalMs: 60_000, timeoutMs: 120_000 });
      follow();
      await waitFor(() => expect(result.current.job?.stage).toBe('queued'));

      act(() => source.open());
      await waitFor(() => expect(result.current.job).toMatchObject({ stage: 'saving', avatarIds: [7] }));
      await pause(100);
      expect(callsTo(fetchMock, 'GET', JOB_PATH)).toHaveLength(2);
    });
  });
});
