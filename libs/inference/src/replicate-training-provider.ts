import type Replicate from 'replicate';
import type { Training as ReplicateTraining } from 'replicate';
import { ProviderUnavailableError, TrainingNotFoundError } from './errors.js';
import type { StartTrainingInput, Training, TrainingProvider } from './inference-provider.js';
import {
  type ApiErrorLike,
  createReplicateClient,
  describe,
  isApiError,
  isReplicateId,
  parseModelName,
  REPLICATE_STATUSES,
  toProviderError,
} from './replicate-client.js';

export { REPLICATE_API_URL } from './replicate-client.js';

export interface ReplicateTrainingProviderOptions {
  /** REPLICATE_API_TOKEN. */
  apiToken: string;
  /** Defaults to Replicate's API (`https://api.replicate.com/v1`); tests point it at a stand-in. */
  baseUrl?: string;
  /** REPLICATE_OWNER: the account that owns the destination models (the token's user or organization). */
  owner: string;
  /** REPLICATE_TRAINER_VERSION: `owner/name:version`, e.g. `ostris/flux-dev-lora-trainer:<version>`. */
  trainer: string;
  /** REPLICATE_HARDWARE: the SKU a destination model is created with. */
  hardware?: string;
  /** Destination models are `<owner>/<prefix>-<modelId>`; a prefix per deployment keeps them apart. */
  modelNamePrefix?: string;
  /** Inputs for the trainer besides the images and the trigger word (defaults: 1000 steps, LoRA rank 16). */
  trainerInput?: Record<string, unknown>;
  /** Each HTTP request gives up after this long (then ProviderUnavailableError). */
  requestTimeoutMs?: number;
  /** How many pages of recent trainings to search for one already started for a model. */
  reconcilePages?: number;
  /** The fetch underneath (defaults to the global one). */
  fetch?: typeof globalThis.fetch;
}

export const DEFAULT_REPLICATE_HARDWARE = 'gpu-t4';
export const DEFAULT_TRAINER_INPUT: Readonly<Record<string, unknown>> = { steps: 1000, lora_rank: 16 };

/**
 * The webhook URL gets this query parameter naming the destination: Replicate's training objects
 * do not name their destination until they succeed, and this is how a training whose creation
 * answer was lost is recognised.
 */
export const DESTINATION_PARAMETER = 'destination';

/** What Replicate gives for a training, with the fields its typings leave out. */
type ReplicateTrainingJson = ReplicateTraining & { destination?: string; status: string };

/**
 * Trainings on Replicate: a private destination model per personal model, a LoRA trainer run into
 * it, the result read back as `owner/name:version`.
 *
 * A creation that timed out or answered 5xx may still have started a training, so it is never
 * repeated blindly: before creating, and after a failed creation, the recent trainings are searched
 * for one into our destination that has not failed, and that one is adopted.
 */
export class ReplicateTrainingProvider implements TrainingProvider {
  readonly kind = 'replicate' as const;
  private readonly client: Replicate;
  private readonly owner: string;
  private readonly trainer: { owner: string; name: string; version: string };
  private readonly hardware: string;
  private readonly modelNamePrefix: string;
  private readonly trainerInput: Record<string, unknown>;
  private readonly reconcilePages: number;

  constructor(options: ReplicateTrainingProviderOptions) {
    const trainer = /^([^/\s:]+)\/([^/\s:]+):(\w+)$/.exec(options.trainer);
    if (!trainer) {
      throw new Error(`The Replicate trainer must be owner/name:version, not "${options.trainer}"`);
    }
    if (!options.owner) throw new Error('The Replicate owner of destination models is missing');
    this.trainer = { ...parseModelName(`${trainer[1]}/${trainer[2]}`), version: trainer[3] ?? '' };
    this.owner = options.owner;
    this.hardware = options.hardware ?? DEFAULT_REPLICATE_HARDWARE;
    this.modelNamePrefix = options.modelNamePrefix ?? 'likeness-model';
    // The SDK puts the owner and names into request paths as they are: checked once, here.
    parseModelName(this.destinationFor(1));
    this.trainerInput = { ...DEFAULT_TRAINER_INPUT, ...options.trainerInput };
    this.reconcilePages = options.reconcilePages ?? 3;
    this.client = createReplicateClient(options);
  }

  /** `<owner>/<prefix>-<modelId>`: the model Replicate keeps the trained weights in. */
  destinationFor(modelId: number): string {
    return `${this.owner}/${this.modelNamePrefix}-${modelId}`;
  }

  async startTraining(input: StartTrainingInput): Promise<Training> {
    if (!input.imagesZipUrl) throw new Error('A Replicate training needs imagesZipUrl (a zip of the images)');
    const destination = this.destinationFor(input.modelId);
    const webhook = input.webhookUrl ? tagWebhook(input.webhookUrl, destination) : undefined;

    const earlier = await this.findStarted(destination, input.imagesZipUrl);
    if (earlier) return earlier;

    await this.ensureDestination(destination, input.modelId);
    const { owner, name, version } = this.trainer;
    try {
      const created = await this.client.trainings.create(owner, name, version, {
        destination: destination as `${string}/${string}`,
        input: { ...this.trainerInput, input_images: input.imagesZipUrl, trigger_word: input.triggerWord },
        ...(webhook ? { webhook, webhook_events_filter: ['start', 'completed'] as const } : {}),
      });
      return toTraining(created as ReplicateTrainingJson, destination);
    } catch (error) {
      const failure = toProviderError(error, `start a training into ${destination}`);
      if (!(failure instanceof ProviderUnavailableError)) throw failure;
      // The answer was lost, not necessarily the training: look before anyone tries again.
      const started = await this.findStarted(destination, input.imagesZipUrl).catch(() => undefined);
      if (started) return started;
      throw failure;
    }
  }

  async getTraining(id: string): Promise<Training> {
    if (!isReplicateId(id)) throw new TrainingNotFoundError(id);
    try {
      return toTraining((await this.client.trainings.get(id)) as ReplicateTrainingJson);
    } catch (error) {
      if (isApiError(error) && error.response.status === 404) throw new TrainingNotFoundError(id);
      throw toProviderError(error, `read training ${id}`);
    }
  }

  async cancelTraining(id: string): Promise<void> {
    if (!isReplicateId(id)) throw new TrainingNotFoundError(id);
    try {
      await this.client.trainings.cancel(id);
    } catch (error) {
      if (isApiError(error) && error.response.status === 404) throw new TrainingNotFoundError(id);
      throw toProviderError(error, `cancel training ${id}`);
    }
  }

  /** Replicate deletes only a model without versions, so the versions go first. A model already gone is fine. */
  async deleteModel(destination: string): Promise<void> {
    const { owner, name } = parseModelName(destination);
    const model = `/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
    try {
      const versions: string[] = [];
      for await (const page of this.client.paginate(() => this.client.models.versions.list(owner, name))) {
        versions.push(...page.map((version) => version.id));
      }
      for (const version of versions) {
        await this.deleteIfPresent(`${model}/versions/${encodeURIComponent(version)}`);
      }
      await this.deleteIfPresent(model);
    } catch (error) {
      if (isApiError(error) && error.response.status === 404) return;
      throw toProviderError(error, `delete model ${destination}`);
    }
  }

  private async deleteIfPresent(path: string): Promise<void> {
    try {
      await this.client.request(path, { method: 'DELETE' });
    } catch (error) {
      if (!(isApiError(error) && error.response.status === 404)) throw error;
    }
  }

  private async ensureDestination(destination: string, modelId: number): Promise<void> {
    const { owner, name } = parseModelName(destination);
    try {
      await this.client.models.create(owner, name, {
        visibility: 'private',
        hardware: this.hardware,
        description: `Likeness personal model ${modelId}`,
      });
    } catch (error) {
      // A model created by an earlier attempt whose answer was lost.
      if (isApiError(error) && alreadyExists(error)) return;
      throw toProviderError(error, `create the destination model ${destination}`);
    }
  }

  /**
   * A training into `destination` that has not failed or been cancelled, among the most recent
   * ones (Replicate lists newest first).
   */
  private async findStarted(destination: string, imagesZipUrl: string): Promise<Training | undefined> {
    try {
      let pages = 0;
      for await (const page of this.client.paginate(() => this.client.trainings.list())) {
        const found = (page as ReplicateTrainingJson[]).find(
          (training) =>
            isFor(training, destination, imagesZipUrl) &&
            training.status !== 'failed' &&
            training.status !== 'canceled',
        );
        if (found) return toTraining(found, destination);
        if (++pages >= this.reconcilePages) break;
      }
      return undefined;
    } catch (error) {
      throw toProviderError(error, 'list recent trainings');
    }
  }
}

function tagWebhook(webhookUrl: string, destination: string): string {
  const url = new URL(webhookUrl);
  url.searchParams.set(DESTINATION_PARAMETER, destination);
  return url.toString();
}

/** Replicate names a training's destination only in its output version; our webhook tag and the images name it before. */
function isFor(training: ReplicateTrainingJson, destination: string, imagesZipUrl: string): boolean {
  if (training.destination !== undefined) return training.destination === destination;
  if (training.output?.version) return training.output.version.startsWith(`${destination}:`);
  const tagged = taggedDestination(training.webhook);
  if (tagged !== undefined) return tagged === destination;
  const images = (training.input as Record<string, unknown> | undefined)?.['input_images'];
  return typeof images === 'string' && withoutQuery(images) === withoutQuery(imagesZipUrl);
}

function taggedDestination(webhook: string | undefined): string | undefined {
  if (!webhook) return undefined;
  try {
    return new URL(webhook).searchParams.get(DESTINATION_PARAMETER) ?? undefined;
  } catch {
    return undefined;
  }
}

function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

function toTraining(json: ReplicateTrainingJson, destination?: string): Training {
  const status = REPLICATE_STATUSES[json.status] ?? 'processing';
  const version = json.output?.version;
  const target = json.destination ?? destination ?? taggedDestination(json.webhook) ?? version?.split(':')[0];
  return {
    id: json.id,
    status,
    ...(status === 'succeeded' && version ? { version } : {}),
    ...(json.error !== undefined && json.error !== null ? { error: describe(json.error) } : {}),
    ...(target ? { destination: target } : {}),
  };
}

function alreadyExists(error: ApiErrorLike): boolean {
  if (error.response.status === 409) return true;
  if (error.response.status !== 400 && error.response.status !== 422) return false;
  return /already exists/i.test(error.message);
}
