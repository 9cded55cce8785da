import { GenerationJob } from '../jobs/generation-job.entity.js';

/** The service's own tables (the outbox and inbox come with the kit). */
export const entities: Function[] = [GenerationJob];
