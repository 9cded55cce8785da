import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
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
});
