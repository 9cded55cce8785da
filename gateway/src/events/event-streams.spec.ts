import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { SessionRevocationList } from '../auth/session-revocation-list.js';
import type { GatewayConfig } from '../gateway.config.js';
import { EventStreams } from './event-streams.js';
import type { UserEventBus } from './user-event-bus.js';

const PERIOD_MS = 15_000;
const STREAMS = 200;
const STEP_MS = 250;

function eventStreams(): EventStreams {
  const config = {
    EVENT_STREAM_HEARTBEAT_MS: PERIOD_MS,
    EVENT_STREAMS_PER_USER: STREAMS,
    EVENT_STREAM_RETRY_MS: 3_000,
    EVENT_STREAM_RESUME_MAX_EVENTS: 10_000,
  } as GatewayConfig;
  const bus = { subscribe: () => () => undefined } as unknown as UserEventBus;
  const revocations = { onRevoked: () => undefined } as unknown as SessionRevocationList;
  return new EventStreams(config, bus, revocations);
}

/** The moments (ms from the start, to STEP_MS) each stream received a heartbeat, over `durationMs`. */
function heartbeatTimes(bodies: PassThrough[], durationMs: number): number[][] {
  const times = bodies.map(() => [] as number[]);
  const drain = (now: number) =>
    bodies.forEach((body, index) => {
      for (let chunk = body.read() as Buffer | null; chunk; chunk = body.read() as Buffer | null) {
        const beats = chunk.toString().split(': heartbeat\n').length - 1;
        for (let beat = 0; beat < beats; beat += 1) times[index]!.push(now);
      }
    });
  drain(0);
  for (let now = STEP_MS; now <= durationMs; now += STEP_MS) {
    jest.advanceTimersByTime(STEP_MS);
    drain(now);
  }
  return times;
}

describe(EventStreams.name, () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('should beat on every stream within each period, streams opened together at different moments', () => {
    const streams = eventStreams();
    // Opened in the same instant, as browsers reconnecting after a deploy do.
    const bodies = Array.from({ length: STREAMS }, () => new PassThrough());
    bodies.forEach((body, index) =>
      streams.open({ id: 1, sessionId: `session-${index}` } as never, undefined, () => body),
    );
    const times = heartbeatTimes(bodies, 3 * PERIOD_MS);

    for (const beats of times) {
      // The first within one period of opening, then one every period: never a quiet period.
      expect(beats.length).toBeGreaterThanOrEqual(3);
      expect(beats[0]).toBeLessThanOrEqual(PERIOD_MS);
      const gaps = beats.slice(1).map((at, index) => at - beats[index]!);
      expect(gaps.every((gap) => gap > PERIOD_MS - 2 * STEP_MS && gap <= PERIOD_MS)).toBe(true);
    }
    // Spread over the period, not in one burst: no moment carries more than a tenth of them.
    const firstBeats = new Map<number, number>();
    for (const [first] of times) firstBeats.set(first!, (firstBeats.get(first!) ?? 0) + 1);
    expect(Math.max(...firstBeats.values())).toBeLessThanOrEqual(STREAMS / 10);
    for (const body of bodies) body.destroy();
  });

  it('should not keep a stream whose browser left before it opened, so it counts against no cap', () => {
    const streams = eventStreams();
    const gone = new PassThrough();
    gone.destroy();

    streams.open({ id: 1, sessionId: 'session-gone' } as never, undefined, () => gone);

    expect(streams.openCount).toBe(0);
  });
});
