import type { AvatarsPage } from '@likeness/contracts';
import { randomBytes } from 'node:crypto';
import { waitFor } from '@likeness/testing';
import type { Page } from 'playwright-core';
import sharp from 'sharp';

/**
 * What a user does before the screens under test, done through the API as the page's own session
 * (its cookies), so a test starts where it needs to be without clicking through the other screens.
 */
export class AccountSetup {
  constructor(
    private readonly page: Page,
    private readonly url: string,
  ) {}

  private post(path: string, data: unknown) {
    return this.page.request.post(`${this.url}${path}`, { data, headers: { origin: this.url } });
  }

  /** Buys a package with the local test card, as the checkout does. */
  async buyCredits(packageId = 'starter'): Promise<{ paymentIntentId: string }> {
    const intent = await this.post('/api/create-payment-intent', { packageId });
    const { paymentIntentId } = (await intent.json()) as { paymentIntentId: string };
    await this.post('/api/local-payments/confirm', { paymentIntentId, cardNumber: '4242 4242 4242 4242' });
    const confirmed = await this.post('/api/confirm-payment', { paymentIntentId });
    if (!confirmed.ok()) throw new Error(`The payment was not confirmed: ${confirmed.status()}`);
    return { paymentIntentId };
  }

  /** Uploads `count` distinct selfies; resolves with their ids. */
  async uploadSelfies(count: number): Promise<number[]> {
    const form = new FormData();
    for (let index = 0; index < count; index += 1) {
      const selfie = await sharp(randomBytes(512 * 512 * 3), { raw: { width: 512, height: 512, channels: 3 } })
        .blur(6)
        .jpeg()
        .toBuffer();
      form.append('selfies', new Blob([new Uint8Array(selfie)], { type: 'image/jpeg' }), `me-${index}.jpg`);
    }
    const uploaded = await this.page.request.post(`${this.url}/api/upload-selfies`, {
      headers: { origin: this.url },
      multipart: form,
    });
    if (uploaded.status() !== 201) throw new Error(`The selfies were not uploaded: ${uploaded.status()}`);
    return ((await uploaded.json()) as { uploadedFiles: { id: number }[] }).uploadedFiles.map((file) => file.id);
  }

  /** Trains a model on `selfieIds` and waits until it is ready; resolves with its id. */
  async trainModel(selfieIds: number[], modelName: string, triggerWord: string): Promise<number> {
    const trained = await this.post('/api/train-model', { modelName, triggerWord, referenceImageIds: selfieIds });
    if (trained.status() !== 201) throw new Error(`The training did not start: ${trained.status()}`);
    return waitFor(
      async () => {
        const models = (await (await this.page.request.get(`${this.url}/api/custom-models`)).json()) as {
          id: number;
          status: string;
        }[];
        return models[0]?.status === 'completed' ? models[0].id : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the model trained' },
    );
  }

  /** Generates one avatar with the model and waits until it is in the gallery. */
  async generateAvatar(customModelId: number, promptText: string): Promise<void> {
    const started = await this.post('/api/generate-avatar', { promptText, customModelId, numOutputs: 1 });
    if (started.status() !== 201) throw new Error(`The generation did not start: ${started.status()}`);
    await waitFor(
      async () => ((await (await this.page.request.get(`${this.url}/api/avatars`)).json()) as AvatarsPage).total > 0,
      { timeoutMs: 30_000, intervalMs: 200, what: 'the avatar generated' },
    );
  }
}
