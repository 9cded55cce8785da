import type { CustomModel } from '@likeness/contracts';

/** A model as GET /api/custom-models lists it; `status` may be any text (the list shows unknown ones as they are). */
export type ModelFixture = Omit<CustomModel, 'status'> & { status: string };

/** A model named `model-{id}` with trigger word `word{id}`, completed, created `id` days after 1 November 2026. */
export function makeModel(id: number, overrides: Partial<ModelFixture> = {}): ModelFixture {
  return {
    id,
    modelName: `model-${id}`,
    triggerWord: `word${id}`,
    status: 'completed',
    trainingType: 'flux-lora',
    failureReason: null,
    createdAt: new Date(Date.UTC(2026, 10, 1 + id, 12)).toISOString(),
    ...overrides,
  };
}
