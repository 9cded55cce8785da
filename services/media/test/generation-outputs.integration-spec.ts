import { randomUUID } from 'node:crypto';
import { GenerationEvents, MediaRpc } from '@likeness/contracts';
import { namespaced } from '@likeness/nest-kit';
import { waitFor } from '@likeness/testing';
import { jetstream } from '@nats-io/jetstream';
import { type NatsConnection, connect } from '@nats-io/transport-node';
import { type MediaUnderTest, startMedia } from './media-harness.js';
import { png } from './test-images.js';

describe('the outputs of a failed generation', () => {
  let media: MediaUnderTest;
  let nats: NatsConnection;

  beforeAll(async () => {
    media = await startMedia('genoutputs');
    nats = await connect({ servers: media.config.NATS_URL });
  });

  afterAll(async () => {
    await nats?.close();
    await media?.close();
  });

  async function storeOutput(userId: number, jobId: string, index: number) {
    const stagingKey = `staging/generations/${jobId}/${index}`;
    await media.storage.put(stagingKey, await png(640, 640), { contentType: 'image/png' });
    return media.rpc.call(MediaRpc.storeAvatar, {
      userId,
      promptText: `run ${jobId}`,
      customModelId: 3,
      stagingKey,
      sourceRef: `generation:${jobId}:${index}`,
    });
  }

  async function publishFailed(userId: number, jobId: string, eventId = randomUUID()): Promise<void> {
    await jetstream(nats).publish(
      namespaced({ namespace: media.config.NATS_NAMESPACE }, GenerationEvents.GenerationFailed.subject),
      JSON.stringify({
        id: eventId,
        type: 'generation.GenerationFailed',
        version: 1,
        occurredAt: new Date().toISOString(),
        payload: { jobId, userId, holdReference: `generation:${jobId}`, reason: 'The image provider refused.' },
      }),
      { msgID: randomUUID() },
    );
  }

  const galleryOf = async (userId: number) => (await media.rpc.call(MediaRpc.listAvatars, { userId })).items;

  it('should leave the gallery, their objects included, and keep every other avatar', async () => {
    const [failedJob, otherJob] = [randomUUID(), randomUUID()];
    const kept = await storeOutput(51, otherJob, 1);
    const doomed = [await storeOutput(51, failedJob, 1), await storeOutput(51, failedJob, 2)];
    const bystander = await storeOutput(52, failedJob, 3);
    expect((await galleryOf(51)).map((avatar) => avatar.id).sort()).toEqual(
      [kept.id, ...doomed.map((avatar) => avatar.id)].sort(),
    );

    const eventId = randomUUID();
    await publishFailed(51, failedJob, eventId);
    await waitFor(async () => (await galleryOf(51)).length === 1, { what: 'the failed outputs removed' });

    expect((await galleryOf(51)).map((avatar) => avatar.id)).toEqual([kept.id]);
    // Objects too: only the kept avatar's image and thumbnail stay under the user's prefix.
    expect(await media.objectsOf(51)).toHaveLength(2);
    // Another person's avatar is never touched, whatever it is named.
    expect((await galleryOf(52)).map((avatar) => avatar.id)).toEqual([bystander.id]);

    // The same event again changes nothing.
    await publishFailed(51, failedJob, eventId);
    await storeOutput(53, randomUUID(), 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await galleryOf(51)).map((avatar) => avatar.id)).toEqual([kept.id]);
  });
});
