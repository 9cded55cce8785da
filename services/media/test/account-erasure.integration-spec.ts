import { AuthEvents, MediaRpc } from '@likeness/contracts';
import { type TestEventPublisher, connectEventPublisher, waitFor, waitForInbox } from '@likeness/testing';
import { type MediaUnderTest, expectError, internalPath, startMedia, storeAvatar, uploaded } from './media-harness.js';
import { jpeg } from './test-images.js';

describe('the erasure of a deleted account in media', () => {
  let media: MediaUnderTest;
  let events: TestEventPublisher;
  let nextUser = 300;

  beforeAll(async () => {
    media = await startMedia('erasure');
    events = await connectEventPublisher(media.config.NATS_URL, media.config.NATS_NAMESPACE);
  });

  afterAll(async () => {
    await events?.close();
    await media?.close();
  });

  /** A person with selfies (some locked by a training, with its zip), and avatars. */
  async function personWithMedia() {
    const userId = (nextUser += 1);
    const files = await Promise.all(
      Array.from({ length: 3 }, async (_, index) => ({ name: `s${index}.jpg`, bytes: await jpeg(512, 512, index) })),
    );
    const selfies = (await uploaded(await media.upload(userId, files))).uploadedFiles;
    await media.rpc.call(MediaRpc.lockSelfiesForTraining, {
      userId,
      modelId: userId,
      imageIds: selfies.slice(0, 2).map((selfie) => selfie.id),
    });
    await media.rpc.call(MediaRpc.createTrainingArchive, { userId, modelId: userId, expiresInSeconds: 600 });
    const avatars = [
      await storeAvatar(media, userId, `job-${userId}:1`),
      await storeAvatar(media, userId, `job-${userId}:2`),
    ];
    return { userId, selfies, avatars };
  }

  const deleted = (userId: number) => ({ userId, deletedAt: new Date().toISOString() });

  const purged = (userId: number) =>
    waitFor(
      async () =>
        (
          await media.db.query(
            `SELECT 1 FROM media.erased_users WHERE user_id = $1 AND objects_purged_at IS NOT NULL`,
            [userId],
          )
        ).rows.length > 0,
      { what: `the objects of user ${userId} purged`, timeoutMs: 20_000 },
    );

  const status = async (publicUrl: string) => (await media.internal(internalPath(publicUrl))).status;

  it('should delete every selfie and avatar, rows and objects, and end their links, leaving others untouched', async () => {
    const gone = await personWithMedia();
    const bystander = await personWithMedia();
    expect(await media.objectsOf(gone.userId)).toHaveLength(3 * 2 + 2 * 2 + 1);
    const links = [
      gone.selfies[0]!.imageUrl,
      gone.selfies[2]!.thumbnailUrl,
      gone.avatars[0]!.imageUrl,
      gone.avatars[1]!.shareUrl,
    ];
    for (const link of links) expect(await status(link)).toBe(200);

    // Delivered twice, and published twice: the second changes nothing.
    await events.publish(AuthEvents.UserDeleted, deleted(gone.userId), { copies: 2 });
    await purged(gone.userId);
    const again = await events.publish(AuthEvents.UserDeleted, deleted(gone.userId));
    await waitForInbox(media.db, 'media', again);

    expect(await media.rpc.call(MediaRpc.listSelfies, { userId: gone.userId })).toEqual([]);
    expect((await media.rpc.call(MediaRpc.listAvatars, { userId: gone.userId })).items).toEqual([]);
    expect(await media.objectsOf(gone.userId)).toEqual([]);
    for (const link of links) expect(await status(link)).toBe(404);
    const { rows } = await media.db.query(
      `SELECT (SELECT count(*) FROM media.uploaded_images WHERE user_id = $1)::int AS selfies,
              (SELECT count(*) FROM media.avatars WHERE user_id = $1)::int AS avatars,
              (SELECT count(*) FROM media.training_locks WHERE user_id = $1)::int AS locks`,
      [gone.userId],
    );
    expect(rows[0]).toEqual({ selfies: 0, avatars: 0, locks: 0 });

    // The other person keeps everything.
    expect(await media.rpc.call(MediaRpc.listSelfies, { userId: bystander.userId })).toHaveLength(3);
    expect((await media.rpc.call(MediaRpc.listAvatars, { userId: bystander.userId })).items).toHaveLength(2);
    expect(await media.objectsOf(bystander.userId)).toHaveLength(3 * 2 + 2 * 2 + 1);
    expect(await status(bystander.avatars[1]!.shareUrl)).toBe(200);
    expect(await status(bystander.selfies[0]!.imageUrl)).toBe(200);
  });

  it('should refuse to store anything more for the deleted user, the staged image included', async () => {
    const { userId } = await personWithMedia();
    await events.publish(AuthEvents.UserDeleted, deleted(userId));
    await purged(userId);

    // A generation job that was still running when the account went.
    await expect(storeAvatar(media, userId, `job-${userId}:late`)).rejects.toMatchObject({ code: 'COMMON.NOT_FOUND' });
    expect(await media.storage.head(`staging/job-${userId}-late.png`)).toBeUndefined();
    // An upload that raced the deletion.
    await expectError(await media.upload(userId, [{ name: 'late.jpg', bytes: await jpeg() }]), 404, 'COMMON.NOT_FOUND');
    expect(await media.objectsOf(userId)).toEqual([]);
    expect((await media.rpc.call(MediaRpc.listAvatars, { userId })).items).toEqual([]);
  });

  it('should purge thousands of objects in batches', async () => {
    const userId = (nextUser += 1);
    // More than two batches, put straight into storage (what rows they had is gone already).
    await Promise.all(
      Array.from({ length: 1_100 }, (_, index) =>
        media.storage.put(`users/${userId}/avatars/${index}.jpg`, Buffer.from([index & 0xff]), {
          contentType: 'image/jpeg',
        }),
      ),
    );
    await events.publish(AuthEvents.UserDeleted, deleted(userId));
    await purged(userId);
    expect(await media.objectsOf(userId)).toEqual([]);
  });
});
