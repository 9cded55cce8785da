import { BillingEvents, GenerationEvents, TrainingEvents } from '@likeness/contracts';
import { type TestEventPublisher, connectEventPublisher, waitFor } from '@likeness/testing';
import { apiClient, type Session } from './api-client.js';
import { type OpenedEventStream, openEventStream } from './sse-client.js';
import { type RunningStack, startTestStack } from './stack-harness.js';

const STREAMS_PER_USER = 3;

let stack: RunningStack;
let api: ReturnType<typeof apiClient>;
let publisher: TestEventPublisher;
const opened: OpenedEventStream[] = [];

beforeAll(async () => {
  stack = await startTestStack({
    EVENT_STREAM_HEARTBEAT_MS: '1000',
    EVENT_STREAMS_PER_USER: String(STREAMS_PER_USER),
  });
  api = apiClient(stack.url);
  publisher = await connectEventPublisher(stack.env.NATS_URL!, stack.env.NATS_NAMESPACE!);
}, 180_000);

afterEach(() => {
  for (const stream of opened.splice(0)) stream.abort();
});

afterAll(async () => {
  await publisher?.close();
  await stack?.shutdown();
});

async function signUp(username: string): Promise<{ session: Session; userId: number }> {
  const session = await api.register(username);
  const user = await api.call('/api/user', { session });
  return { session, userId: user.json.id as number };
}

/** Opens the session's stream on the first gateway, or on the one at `url`. */
async function open(session: Session, lastEventId?: string, url = stack.url): Promise<OpenedEventStream> {
  const stream = await openEventStream(url, { cookie: session.cookie, ...(lastEventId ? { lastEventId } : {}) });
  opened.push(stream);
  return stream;
}

/** The balance sequence a user's stream should show: `CreditsChanged` events numbered from `from`. */
async function publishCredits(userId: number, from: number, count: number): Promise<void> {
  for (let index = from; index < from + count; index += 1) {
    await publisher.publish(BillingEvents.CreditsChanged, {
      userId,
      delta: 1,
      balance: index,
      available: index,
      reason: 'test',
    });
  }
}

const balances = (stream: OpenedEventStream) =>
  stream.messages
    .filter((message) => message.event === 'credits.changed')
    .map((message) => (JSON.parse(message.data) as { balance: number }).balance);

it('gives each user exactly their own events, and nothing else of them', async () => {
  const ann = await signUp('events_ann');
  const bob = await signUp('events_bob');
  const annStream = await open(ann.session);
  const bobStream = await open(bob.session);
  await waitFor(async () => annStream.comments.includes('connected') && bobStream.comments.includes('connected'), {
    what: 'both streams open',
  });

  for (let round = 0; round < 4; round += 1) {
    await publishCredits(ann.userId, 1000 + round * 10, 10);
    await publishCredits(bob.userId, 2000 + round * 10, 10);
  }
  await publisher.publish(TrainingEvents.TrainingStarted, {
    modelId: 77,
    userId: bob.userId,
    holdReference: 'training:77',
    provider: 'local',
    trainingJobId: 'local-train-secret',
  });
  const jobId = '3f2c1d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
  await publisher.publish(GenerationEvents.GenerationProgressed, {
    jobId,
    userId: bob.userId,
    stage: 'saving',
    avatarIds: [41, 42],
  });

  await annStream.waitForMessages(40, "ann's 40 events");
  await bobStream.waitForMessages(42, "bob's 42 events");
  expect(balances(annStream)).toEqual(Array.from({ length: 40 }, (_, index) => 1000 + index));
  expect(balances(bobStream)).toEqual(Array.from({ length: 40 }, (_, index) => 2000 + index));
  const started = bobStream.messages.find((message) => message.event === 'training.started');
  // Only what the screens need: no user id, hold or provider job id.
  expect(JSON.parse(started!.data)).toEqual({ modelId: 77 });
  const progress = bobStream.messages.find((message) => message.event === 'generation.progress');
  expect(JSON.parse(progress!.data)).toEqual({ jobId, stage: 'saving', avatarIds: [41, 42] });
  expect(annStream.messages.map((message) => message.event)).not.toContain('generation.progress');
  expect(JSON.parse(annStream.messages[0]!.data)).toEqual({ balance: 1000, available: 1000 });
  const ids = annStream.messages.map((message) => Number(message.id));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
});

it('resumes a dropped stream from Last-Event-ID without missing or repeating an event', async () => {
  const { session, userId } = await signUp('events_resume');
  const first = await open(session);
  await waitFor(async () => first.comments.includes('connected'), { what: 'the stream open' });
  await publishCredits(userId, 1, 5);
  const seen = await first.waitForMessages(5, 'the first 5 events');
  first.abort();

  await publishCredits(userId, 6, 7);
  const resumed = await open(session, seen.at(-1)!.id);
  await publishCredits(userId, 13, 3);
  await resumed.waitForMessages(10, 'the 7 missed events and 3 new ones');
  expect(balances(resumed)).toEqual(Array.from({ length: 10 }, (_, index) => 6 + index));
});

it('resumes on another gateway with exactly the missed events, in order, and only its own', async () => {
  // Two replicas behind one load balancer, each with its own consumer of the events stream: the
  // browser's reconnection lands on the other one.
  const other = await stack.addGateway();
  const ann = await signUp('events_hop_ann');
  const bob = await signUp('events_hop_bob');
  const onFirst = await open(ann.session);
  await waitFor(async () => onFirst.comments.includes('connected'), { what: 'the stream open on the first gateway' });
  await publishCredits(ann.userId, 1, 1);
  const [seen] = await onFirst.waitForMessages(1, 'the first event on the first gateway');
  onFirst.abort();

  // While the browser is away, its user's events and another user's, interleaved.
  for (let balance = 2; balance <= 6; balance += 1) {
    await publishCredits(ann.userId, balance, 1);
    await publishCredits(bob.userId, 100 + balance, 1);
  }
  const onOther = await open(ann.session, seen!.id, other.url);
  expect(onOther.status).toBe(200);
  // After the resume, live through the other gateway's own consumer.
  await publishCredits(bob.userId, 200, 1);
  await publishCredits(ann.userId, 7, 1);

  await onOther.waitForMessages(6, 'the 5 missed events and the new one on the other gateway');
  // A heartbeat after the new event: anything repeated or another user's would be here by now.
  const beats = onOther.comments.filter((comment) => comment === 'heartbeat').length;
  await waitFor(async () => onOther.comments.filter((comment) => comment === 'heartbeat').length > beats, {
    what: 'a heartbeat after the last event',
  });
  expect(balances(onOther)).toEqual([2, 3, 4, 5, 6, 7]);
  expect(onOther.messages.map((message) => message.event)).toEqual(Array.from({ length: 6 }, () => 'credits.changed'));
  const ids = onOther.messages.map((message) => Number(message.id));
  expect(ids[0]).toBeGreaterThan(Number(seen!.id));
  expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
});

it('asks the client to read everything again when Last-Event-ID is beyond what it can replay', async () => {
  const { session } = await signUp('events_resync');
  const stream = await open(session, '999999999');
  const [message] = await stream.waitForMessages(1, 'the resync');
  expect(message!.event).toBe('resync');
});

it('answers with an event stream carrying the headers every answer does, and heartbeats while nothing happens', async () => {
  const { session } = await signUp('events_quiet');
  const stream = await open(session);

  expect(stream.status).toBe(200);
  expect(stream.headers).toMatchObject({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-correlation-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
    'content-security-policy': expect.stringContaining("default-src 'self'"),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'strict-transport-security': expect.stringContaining('max-age='),
  });
  await waitFor(async () => stream.comments.includes('heartbeat'), { what: 'a heartbeat' });
  expect(stream.messages).toEqual([]);
});

it('refuses a stream past the per-user cap with 429, and opens one again once another is closed', async () => {
  const { session } = await signUp('events_tabs');
  const streams = [];
  for (let index = 0; index < STREAMS_PER_USER; index += 1) streams.push(await open(session));
  for (const stream of streams) expect(stream.status).toBe(200);

  const refused = await open(session);
  expect(refused.status).toBe(429);
  expect(refused.refusal?.message).toMatch(/windows receiving live updates/);

  streams[0]!.abort();
  const again = await waitFor(
    async () => {
      const stream = await open(session);
      return stream.status === 200 ? stream : undefined;
    },
    { what: 'a stream once one closed' },
  );
  expect(again.status).toBe(200);
});

it('refuses a visitor without a session', async () => {
  const result = await api.call('/api/events');
  expect(result.status).toBe(401);
});

it("closes a session's streams on logout, and its cookies open none again", async () => {
  const { session } = await signUp('events_logout');
  const other = await api.call('/api/login', {
    method: 'POST',
    body: { username: 'events_logout', password: 'secret-password' },
  });
  const otherSession = {
    cookie: other.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; '),
  };
  const stream = await open(session);
  const otherStream = await open(otherSession);
  await waitFor(async () => stream.comments.includes('connected'), { what: 'the stream open' });

  expect((await api.call('/api/logout', { method: 'POST', session })).status).toBe(200);
  await stream.ended;
  expect(stream.isEnded()).toBe(true);
  expect((await open(session)).status).toBe(401);
  // The same user's other session keeps its stream.
  expect(otherStream.isEnded()).toBe(false);
});

it('closes every stream with a retry hint when the gateway shuts down', async () => {
  const { session } = await signUp('events_deploy');
  const stream = await open(session);
  await waitFor(async () => stream.comments.includes('connected'), { what: 'the stream open' });
  stack.expectExit('gateway');
  stack.children.get('gateway')!.kill('SIGTERM');
  await stream.ended;
  expect(stream.retries.length).toBe(2);
  expect(stream.retries[1]).toBeGreaterThanOrEqual(3000);
});
