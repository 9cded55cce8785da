import { z } from 'zod';
import { generationJobStageSchema } from '../generation/generation.schemas.js';
import { defineRoute } from '../http.js';

/**
 * What `GET /api/events` tells a signed-in browser, one server-sent event each: the `event:` line
 * names the type, `data:` holds the JSON below, `id:` the JetStream sequence of the domain event it
 * came from (send it back as `Last-Event-ID` to resume). Only the user's own facts, never internal
 * ones (holds, provider ids, storage keys).
 */
export const liveEventSchemas = {
  'training.started': z.object({ modelId: z.number().int().positive() }),
  'training.completed': z.object({ modelId: z.number().int().positive(), modelName: z.string() }),
  'training.failed': z.object({ modelId: z.number().int().positive() }),
  /** A running job's stage and the avatars kept so far (what `GET /api/generation-jobs/{jobId}` says of them). */
  'generation.progress': z.object({
    jobId: z.uuid(),
    stage: generationJobStageSchema,
    avatarIds: z.array(z.number().int().positive()),
  }),
  'generation.completed': z.object({ jobId: z.uuid(), avatarIds: z.array(z.number().int().positive()) }),
  'generation.failed': z.object({ jobId: z.uuid() }),
  'credits.changed': z.object({ balance: z.number().int().nonnegative(), available: z.number().int().nonnegative() }),
  'payment.succeeded': z.object({ paymentId: z.string(), credits: z.number().int().positive() }),
} as const;

export type LiveEventType = keyof typeof liveEventSchemas;
export type LiveEventData<T extends LiveEventType> = z.infer<(typeof liveEventSchemas)[T]>;
export const LIVE_EVENT_TYPES = Object.keys(liveEventSchemas) as LiveEventType[];

/**
 * Sent instead of the missed events when a `Last-Event-ID` is further behind than the gateway
 * replays: the client should read everything again.
 */
export const LIVE_RESYNC_EVENT = 'resync';

export const eventStreamRoute = defineRoute({
  method: 'GET',
  path: '/api/events',
  summary:
    "The signed-in user's own live events as server-sent events (text/event-stream): training, generation, credits and payments; resumable with Last-Event-ID; at most a few streams per user",
  tag: 'events',
  auth: true,
  params: undefined,
  body: undefined,
  responseType: 'event-stream',
  response: z.string().describe('text/event-stream: `id`, `event` (a live event type or `resync`) and JSON `data`'),
  errors: ['COMMON.RATE_LIMITED'],
});
