import * as AdminRpc from '../admin/admin.rpc.js';
import * as AuthEvents from '../auth/auth.events.js';
import * as AuthJobs from '../auth/auth.jobs.js';
import * as AuthRpc from '../auth/auth.rpc.js';
import { SESSION_REVOCATIONS_BUCKET } from '../auth/auth.schemas.js';
import * as BillingEvents from '../billing/billing.events.js';
import * as BillingRpc from '../billing/billing.rpc.js';
import type { EventDefinition } from '../events.js';
import * as GenerationEvents from '../generation/generation.events.js';
import * as GenerationJobs from '../generation/generation.jobs.js';
import * as GenerationRpc from '../generation/generation.rpc.js';
import type { JobDefinition } from '../jobs.js';
import * as MediaJobs from '../media/media.jobs.js';
import * as MediaRpc from '../media/media.rpc.js';
import type { RpcDefinition } from '../rpc.js';
import * as TrainingEvents from '../training/training.events.js';
import * as TrainingJobs from '../training/training.jobs.js';
import * as TrainingRpc from '../training/training.rpc.js';
import { SERVICE_NAMES, type ServiceName, pingRpc } from './system.rpc.js';

const isRpc = (value: unknown): value is RpcDefinition =>
  typeof value === 'object' && value !== null && 'subject' in value && 'request' in value && 'response' in value;
const isEvent = (value: unknown): value is EventDefinition =>
  typeof value === 'object' && value !== null && String((value as EventDefinition).subject).startsWith('events.');
const isJob = (value: unknown): value is JobDefinition =>
  typeof value === 'object' && value !== null && String((value as JobDefinition).subject).startsWith('jobs.');

/** Every RPC of the contracts, each service's ping included. */
export const ALL_RPCS: readonly RpcDefinition[] = [
  ...[AuthRpc, BillingRpc, MediaRpc, TrainingRpc, GenerationRpc, AdminRpc].flatMap((module) =>
    Object.values(module).filter(isRpc),
  ),
  ...SERVICE_NAMES.map((service) => pingRpc(service)),
];

/** Every domain event of the contracts. */
export const ALL_EVENTS: readonly EventDefinition[] = [
  AuthEvents,
  BillingEvents,
  TrainingEvents,
  GenerationEvents,
].flatMap((module) => Object.values(module).filter(isEvent));

/** Every kind of background job of the contracts. */
export const ALL_JOBS: readonly JobDefinition[] = [AuthJobs, MediaJobs, TrainingJobs, GenerationJobs].flatMap(
  (module) => Object.values(module).filter(isJob),
);

/** The service that answers an RPC: the first word of its subject (`billing.credits.reserve`). */
export const rpcServiceOf = (rpc: RpcDefinition): string => rpc.subject.split('.')[0] ?? '';

/**
 * What one process role may do on NATS: the one place that says which subjects, streams and
 * buckets each app uses. NATS users and their permissions are derived from it
 * (`natsPermissionsOf` in the kit, `npm run nats:config`); a unit test holds it to the code.
 */
export interface BusAccess {
  /**
   * The service whose own subjects it uses: its events (published from its outbox), its jobs (queued
   * from its outbox), and, when `servesRpc`, its RPCs. The gateway has none.
   */
  service?: ServiceName;
  /** Answers its service's RPCs (the generation workers do not). */
  servesRpc?: boolean;
  /** Takes its service's jobs from the work queue (the generation API does not). */
  takesJobs?: boolean;
  /** Looks up whether one of its service's jobs is still queued (generation's sweeper). */
  readsJobQueue?: boolean;
  /** RPCs of other services it calls. */
  calls: readonly RpcDefinition[];
  /** Events it handles, each through its own durable consumer. */
  consumes: readonly EventDefinition[];
  /** KV buckets it creates and writes (names without the namespace). */
  writesBuckets?: readonly string[];
  /** KV buckets it only opens and watches. */
  watchesBuckets?: readonly string[];
  /** Reads the whole events stream with short-lived ordered consumers (the gateway's live events). */
  readsAllEvents?: boolean;
  /** Plain NATS subjects, without a stream, it publishes: notices between its service's roles. */
  publishesNotices?: readonly string[];
  /** Plain NATS subjects it subscribes to (wildcards allowed). */
  subscribesNotices?: readonly string[];
}

/** The generation API tells the workers that a prediction's webhook came (`generation.predictions.<job id>.ended`). */
const PREDICTION_ENDED_NOTICES = 'generation.predictions.*.ended';

const pings = SERVICE_NAMES.map((service) => pingRpc(service));

/** Every process role with its own NATS user. */
export const BUS_ACCESS = {
  gateway: {
    calls: [
      ...pings,
      AuthRpc.register,
      AuthRpc.login,
      AuthRpc.refresh,
      AuthRpc.logout,
      AuthRpc.getUser,
      AuthRpc.requestPasswordReset,
      AuthRpc.resetPassword,
      AuthRpc.changePassword,
      AuthRpc.changeAdminPassword,
      AuthRpc.deleteAccount,
      BillingRpc.getBalance,
      BillingRpc.openAccount,
      BillingRpc.listPackages,
      BillingRpc.getPaymentConfig,
      BillingRpc.createPaymentIntent,
      BillingRpc.confirmPayment,
      BillingRpc.confirmLocalPayment,
      BillingRpc.getCreditHistory,
      BillingRpc.handleStripeWebhook,
      MediaRpc.listSelfies,
      MediaRpc.deleteSelfie,
      MediaRpc.listAvatars,
      MediaRpc.setAvatarFavourite,
      MediaRpc.bulkDeleteAvatars,
      MediaRpc.deleteAvatar,
      TrainingRpc.trainModel,
      TrainingRpc.listModels,
      TrainingRpc.deleteModel,
      TrainingRpc.getInferenceConfig,
      TrainingRpc.handleReplicateWebhook,
      GenerationRpc.generateAvatar,
      GenerationRpc.listJobs,
      GenerationRpc.getJob,
      GenerationRpc.handlePredictionWebhook,
      ...Object.values(AdminRpc),
    ],
    consumes: [],
    writesBuckets: ['gateway_rate_limits'],
    watchesBuckets: [SESSION_REVOCATIONS_BUCKET],
    readsAllEvents: true,
  },
  auth: {
    service: 'auth',
    servesRpc: true,
    takesJobs: true,
    calls: [TrainingRpc.listModels, BillingRpc.listPackages],
    consumes: [
      AuthEvents.UserRegistered,
      AuthEvents.SessionsRevoked,
      TrainingEvents.TrainingCompleted,
      TrainingEvents.TrainingFailed,
      BillingEvents.PaymentSucceeded,
    ],
    writesBuckets: [SESSION_REVOCATIONS_BUCKET, 'login_limits', 'password_reset_limits'],
  },
  billing: {
    service: 'billing',
    servesRpc: true,
    calls: [],
    consumes: [
      AuthEvents.UserRegistered,
      AuthEvents.UserDeleted,
      GenerationEvents.GenerationCompleted,
      GenerationEvents.GenerationFailed,
      TrainingEvents.TrainingCompleted,
      TrainingEvents.TrainingFailed,
    ],
  },
  media: {
    service: 'media',
    servesRpc: true,
    takesJobs: true,
    calls: [],
    consumes: [
      AuthEvents.UserDeleted,
      TrainingEvents.TrainingCompleted,
      TrainingEvents.TrainingFailed,
      GenerationEvents.GenerationFailed,
    ],
    writesBuckets: ['media_pixels'],
  },
  training: {
    service: 'training',
    servesRpc: true,
    takesJobs: true,
    calls: [
      BillingRpc.reserveCredits,
      BillingRpc.releaseCredits,
      MediaRpc.lockSelfiesForTraining,
      MediaRpc.createTrainingArchive,
      MediaRpc.releaseSelfies,
    ],
    consumes: [AuthEvents.UserDeleted],
  },
  /** GENERATION_ROLE=api: requests, the outbox, the sweeper. */
  generation: {
    service: 'generation',
    servesRpc: true,
    readsJobQueue: true,
    calls: [
      TrainingRpc.getRunnableModel,
      BillingRpc.reserveCredits,
      BillingRpc.getGenerationPriority,
      BillingRpc.releaseCredits,
    ],
    consumes: [AuthEvents.UserDeleted],
    publishesNotices: [PREDICTION_ENDED_NOTICES],
  },
  /** GENERATION_ROLE=worker: runs the queued jobs; its outbox publishes generation's events and jobs too. */
  'generation-worker': {
    service: 'generation',
    takesJobs: true,
    calls: [TrainingRpc.getRunnableModel, MediaRpc.storeAvatar],
    consumes: [],
    writesBuckets: ['generation_rate'],
    subscribesNotices: [PREDICTION_ENDED_NOTICES],
  },
  reporting: {
    service: 'reporting',
    servesRpc: true,
    // `reporting:rebuild` reads every service's snapshot.
    calls: [
      AuthRpc.snapshotUsers,
      BillingRpc.snapshotAccounts,
      BillingRpc.snapshotPayments,
      TrainingRpc.snapshotModels,
      GenerationRpc.snapshotJobs,
    ],
    consumes: [
      AuthEvents.UserRegistered,
      AuthEvents.UserDeleted,
      BillingEvents.CreditsChanged,
      BillingEvents.PaymentSucceeded,
      BillingEvents.PaymentRefunded,
      TrainingEvents.TrainingStarted,
      TrainingEvents.TrainingCompleted,
      TrainingEvents.TrainingFailed,
      GenerationEvents.GenerationRequested,
      GenerationEvents.GenerationCompleted,
      GenerationEvents.GenerationFailed,
    ],
  },
} as const satisfies Record<string, BusAccess>;

export type BusApp = keyof typeof BUS_ACCESS;
export const BUS_APPS = Object.keys(BUS_ACCESS) as BusApp[];
