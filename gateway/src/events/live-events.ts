import {
  BillingEvents,
  type EventDefinition,
  type EventPayload,
  GenerationEvents,
  type LiveEventData,
  type LiveEventType,
  TrainingEvents,
  eventEnvelopeSchema,
} from '@likeness/contracts';

const { TrainingStarted, TrainingCompleted, TrainingFailed } = TrainingEvents;
const { GenerationProgressed, GenerationCompleted, GenerationFailed } = GenerationEvents;
const { CreditsChanged, PaymentSucceeded } = BillingEvents;

/** One event for one user's streams: `id` is the domain event's JetStream sequence. */
export interface LiveEvent {
  id: number;
  userId: number;
  type: LiveEventType;
  data: LiveEventData<LiveEventType>;
}

interface Translation<E extends EventDefinition> {
  event: E;
  type: LiveEventType;
  /** Only what the user may see of their own event. */
  data: (payload: EventPayload<E>) => LiveEventData<LiveEventType>;
}

const translation = <E extends EventDefinition>(entry: Translation<E>) =>
  entry as unknown as Translation<EventDefinition>;

const TRANSLATIONS = [
  translation({ event: TrainingStarted, type: 'training.started', data: ({ modelId }) => ({ modelId }) }),
  translation({
    event: TrainingCompleted,
    type: 'training.completed',
    data: ({ modelId, modelName }) => ({ modelId, modelName }),
  }),
  translation({ event: TrainingFailed, type: 'training.failed', data: ({ modelId }) => ({ modelId }) }),
  translation({
    event: GenerationProgressed,
    type: 'generation.progress',
    data: ({ jobId, stage, avatarIds }) => ({ jobId, stage, avatarIds }),
  }),
  translation({
    event: GenerationCompleted,
    type: 'generation.completed',
    data: ({ jobId, avatarIds }) => ({ jobId, avatarIds }),
  }),
  translation({ event: GenerationFailed, type: 'generation.failed', data: ({ jobId }) => ({ jobId }) }),
  translation({
    event: CreditsChanged,
    type: 'credits.changed',
    data: ({ balance, available }) => ({ balance, available }),
  }),
  translation({
    event: PaymentSucceeded,
    type: 'payment.succeeded',
    data: ({ paymentId, credits }) => ({ paymentId, credits }),
  }),
];

const BY_SUBJECT = new Map(TRANSLATIONS.map((entry) => [entry.event.subject, entry]));

/** Whether a domain event's subject (without the namespace) makes a live event: others are not even parsed. */
export const isLiveSubject = (subject: string) => BY_SUBJECT.has(subject as EventDefinition['subject']);

/**
 * The live event a domain event makes for its user, or undefined for one no screen shows (or a
 * malformed one). `subject` is without the namespace.
 */
export function liveEventOf(subject: string, sequence: number, body: unknown): LiveEvent | undefined {
  const entry = BY_SUBJECT.get(subject as EventDefinition['subject']);
  if (!entry) return undefined;
  const envelope = eventEnvelopeSchema.safeParse(body);
  const payload = envelope.success ? entry.event.payload.safeParse(envelope.data.payload) : undefined;
  if (!payload?.success) return undefined;
  const fields = payload.data as EventPayload<EventDefinition> & { userId: number };
  return { id: sequence, userId: fields.userId, type: entry.type, data: entry.data(fields) };
}
