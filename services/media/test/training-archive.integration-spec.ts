import { randomUUID } from 'node:crypto';
import { type EventDefinition, type EventPayload, MediaRpc, TrainingEvents } from '@likeness/contracts';
import { namespaced } from '@likeness/nest-kit';
import { waitFor } from '@likeness/testing';
import { jetstream } from '@nats-io/jetstream';
import { type NatsConnection, connect } from '@nats-io/transport-node';
import { type MediaUnderTest, startMedia, uploaded } from './media-harness.js';
import { jpeg } from './test-images.js';
import { zipEntries } from './zip-entries.js';

async function readAll(media: MediaUnderTest, key: string): Promise<Buffer> {
  const object = await media.storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the training selfies in media', () => {
  let media: MediaUnderTest;
  let nats: NatsConnection;
  let nextUser = 900;

  beforeAll(async () => {
    media = await startMedia('archive', { PUBLIC_URL: 'https://likeness.example' });
    nats = await connect({ servers: media.config.NATS_URL });
  });

  afterAll(async () => {
    await nats?.close();
    await media?.close();
  });

  async function lockedSelfies(modelId: number, count = 12) {
    const userId = (nextUser += 1);
    const files = await Promise.all(
      Array.from({ length: count }, async (_, index) => ({
        name: `s${index}.jpg`,
        bytes: await jpeg(512, 512, index),
      })),
    );
    const selfies = (await uploaded(await media.upload(userId, files))).uploadedFiles;
    const locked = await media.rpc.call(MediaRpc.lockSelfiesForTraining, {
      userId,
      modelId,
      imageIds: selfies.map((selfie) => selfie.id),
    });
    return { userId, locked };
  }

  async function publish<E extends EventDefinition>(event: E, payload: EventPayload<E>): Promise<string> {
    const id = randomUUID();
    await jetstream(nats).publish(
      namespaced({ namespace: media.config.NATS_NAMESPACE }, event.subject),
      JSON.stringify({
        id,
        type: `${event.service}.${event.name}`,
        version: 1,
        occurredAt: new Date().toISOString(),
        payload,
      }),
      { msgID: id },
    );
    return id;
  }

  it('should zip the locked selfies unchanged and serve the zip by a signed URL while they are locked', async () => {
    const { userId, locked } = await lockedSelfies(41);
    const archive = await media.rpc.call(MediaRpc.createTrainingArchive, {
      userId,
      modelId: 41,
      expiresInSeconds: 600,
    });
    expect(archive.key).toBe(`users/${userId}/training/41.zip`);
    expect(archive.url).toMatch(
      new RegExp(`^https://likeness\\.example/api/files/users/${userId}/training/41\\.zip\\?expires=\\d+&signature=`),
    );

    const zip = await readAll(media, archive.key);
    const entries = await zipEntries(zip);
    expect(entries.map((entry) => entry.name)).toEqual(
      Array.from({ length: 12 }, (_, index) => `selfie-${String(index + 1).padStart(2, '0')}.jpg`),
    );
    const byId = [...locked.images].sort((a, b) => a.id - b.id);
    for (const [index, entry] of entries.entries()) {
      expect(entry.compressionMethod).toBe(0);
      expect(entry.data.equals(await readAll(media, byId[index]!.key))).toBe(true);
    }

    // The gateway forwards /api/files/... to media's /internal/files/...
    const internalPath = archive.url!.replace('https://likeness.example/api/files/', '/internal/files/');
    const served = await media.internal(internalPath);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await served.arrayBuffer()).equals(zip)).toBe(true);

    // Asked again (a retried start), the same zip answers.
    await expect(
      media.rpc.call(MediaRpc.createTrainingArchive, { userId, modelId: 41, expiresInSeconds: 600 }),
    ).resolves.toMatchObject({ key: archive.key });
    expect((await readAll(media, archive.key)).equals(zip)).toBe(true);

    // The training ended: the selfies are free again, and the zip is gone with its link.
    const eventId = await publish(TrainingEvents.TrainingFailed, {
      modelId: 41,
      userId,
      holdReference: 'training:x',
      reason: 'It failed.',
    });
    await waitFor(
      async () => (await media.db.query(`SELECT 1 FROM media.inbox WHERE event_id = $1`, [eventId])).rows.length > 0,
      { what: 'the event to be handled' },
    );
    const locks = await media.db.query(`SELECT 1 FROM media.training_locks WHERE model_id = 41`);
    expect(locks.rows).toEqual([]);
    expect(await media.storage.head(archive.key)).toBeUndefined();
    expect((await media.internal(internalPath)).status).toBe(404);
  });

  it('should release the selfies of a completed training', async () => {
    const { userId } = await lockedSelfies(42, 12);
    const before = await media.rpc.call(MediaRpc.listSelfies, { userId });
    expect(before.filter((selfie) => selfie.inUse)).toHaveLength(12);
    const eventId = await publish(TrainingEvents.TrainingCompleted, {
      modelId: 42,
      userId,
      holdReference: 'training:y',
      modelName: 'Mine',
      triggerWord: 'ohwx',
      provider: 'local',
      version: 'local:42',
      imageKeys: [],
    });
    await waitFor(
      async () => (await media.db.query(`SELECT 1 FROM media.inbox WHERE event_id = $1`, [eventId])).rows.length > 0,
      { what: 'the event to be handled' },
    );
    const selfies = await media.rpc.call(MediaRpc.listSelfies, { userId });
    expect(selfies).toHaveLength(12);
    expect(selfies.filter((selfie) => selfie.inUse)).toEqual([]);
  });

  it('should refuse a zip for a model with no selfies locked by that person', async () => {
    const { userId } = await lockedSelfies(43, 1);
    await expect(
      media.rpc.call(MediaRpc.createTrainingArchive, { userId: userId + 1000, modelId: 43, expiresInSeconds: 600 }),
    ).rejects.toMatchObject({ code: 'COMMON.NOT_FOUND' });
    await expect(
      media.rpc.call(MediaRpc.createTrainingArchive, { userId, modelId: 44, expiresInSeconds: 600 }),
    ).rejects.toMatchObject({ code: 'COMMON.NOT_FOUND' });
  });
});
