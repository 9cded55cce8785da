import { MediaRpc, type UploadedImage } from '@likeness/contracts';
import { type MediaUnderTest, startMedia, uploaded } from './media-harness.js';
import { jpeg, png } from './test-images.js';

const IN_USE = 'This selfie is being used to train a model. You can delete it once the training has finished.';

describe('selfies and avatars over RPC', () => {
  let media: MediaUnderTest;
  let nextUser = 200;
  const newUser = () => (nextUser += 1);

  beforeAll(async () => {
    media = await startMedia('rpc');
  });

  afterAll(async () => {
    await media?.close();
  });

  async function uploadSelfies(userId: number, count: number): Promise<UploadedImage[]> {
    const files = await Promise.all(
      Array.from({ length: count }, async (_, index) => ({
        name: `s${index}.jpg`,
        bytes: await jpeg(512, 512, index),
      })),
    );
    return (await uploaded(await media.upload(userId, files))).uploadedFiles;
  }

  async function stage(name: string, bytes?: Buffer): Promise<string> {
    const key = `staging/${name}`;
    await media.storage.put(key, bytes ?? (await png(200, 120)), { contentType: 'image/png' });
    return key;
  }

  const storeAvatar = async (userId: number, sourceRef: string, stagingKey?: string) =>
    media.rpc.call(MediaRpc.storeAvatar, {
      userId,
      promptText: `portrait ${sourceRef}`,
      customModelId: null,
      stagingKey: stagingKey ?? (await stage(`${sourceRef.replace(':', '-')}.png`)),
      sourceRef,
    });

  describe('ownership', () => {
    it("should neither list, delete nor lock another person's selfies", async () => {
      const owner = newUser();
      const other = newUser();
      const [selfie] = await uploadSelfies(owner, 1);

      await expect(media.rpc.call(MediaRpc.listSelfies, { userId: other })).resolves.toEqual([]);
      await expect(media.rpc.call(MediaRpc.deleteSelfie, { userId: other, id: selfie!.id })).rejects.toMatchObject({
        status: 404,
        code: 'COMMON.NOT_FOUND',
      });
      await expect(
        media.rpc.call(MediaRpc.lockSelfiesForTraining, { userId: other, modelId: 1, imageIds: [selfie!.id] }),
      ).rejects.toMatchObject({ code: 'COMMON.NOT_FOUND' });
      await expect(media.rpc.call(MediaRpc.listSelfies, { userId: owner })).resolves.toMatchObject([
        { id: selfie!.id, inUse: false },
      ]);
      expect(await media.objectsOf(owner)).toHaveLength(2);
    });

    it("should neither list nor delete another person's avatars", async () => {
      const owner = newUser();
      const other = newUser();
      const avatar = await storeAvatar(owner, `own-${owner}:0`);

      expect((await media.rpc.call(MediaRpc.listAvatars, { userId: other })).items).toEqual([]);
      await expect(media.rpc.call(MediaRpc.deleteAvatar, { userId: other, id: avatar.id })).rejects.toMatchObject({
        status: 404,
        code: 'COMMON.NOT_FOUND',
      });
      expect((await media.rpc.call(MediaRpc.listAvatars, { userId: owner })).items).toEqual([avatar]);
      expect(await media.objectsOf(owner)).toHaveLength(2);
    });

    it('should delete my own selfie with its objects', async () => {
      const owner = newUser();
      const [selfie] = await uploadSelfies(owner, 1);
      await expect(media.rpc.call(MediaRpc.deleteSelfie, { userId: owner, id: selfie!.id })).resolves.toEqual({
        deleted: true,
      });
      await expect(media.rpc.call(MediaRpc.listSelfies, { userId: owner })).resolves.toEqual([]);
      expect(await media.objectsOf(owner)).toEqual([]);
      await expect(media.rpc.call(MediaRpc.deleteSelfie, { userId: owner, id: selfie!.id })).rejects.toMatchObject({
        code: 'COMMON.NOT_FOUND',
      });
    });
  });

  describe('training locks', () => {
    it('should refuse to delete a selfie while a training uses it, and allow it after release', async () => {
      const userId = newUser();
      const images = await uploadSelfies(userId, 3);
      const ids = images.map((image) => image.id);

      const locked = await media.rpc.call(MediaRpc.lockSelfiesForTraining, { userId, modelId: 11, imageIds: ids });
      expect(locked.images.map((image) => image.id)).toEqual(ids);
      for (const image of locked.images) {
        expect(image.key).toMatch(new RegExp(`^users/${userId}/selfies/[0-9a-f-]{36}\\.jpg$`));
        // Local storage has no presigned URLs and PUBLIC_URL is unset.
        expect(image.downloadUrl).toBeUndefined();
      }
      // The same model asking again changes nothing.
      await expect(
        media.rpc.call(MediaRpc.lockSelfiesForTraining, { userId, modelId: 11, imageIds: ids }),
      ).resolves.toEqual(locked);
      const listed = await media.rpc.call(MediaRpc.listSelfies, { userId });
      expect(listed.every((image) => image.inUse)).toBe(true);

      await expect(media.rpc.call(MediaRpc.deleteSelfie, { userId, id: ids[0]! })).rejects.toMatchObject({
        status: 409,
        code: 'MEDIA.IMAGE_IN_USE',
        message: IN_USE,
      });
      expect(await media.selfieCount(userId)).toBe(3);
      expect(await media.objectsOf(userId)).toHaveLength(6);

      await expect(media.rpc.call(MediaRpc.releaseSelfies, { userId, modelId: 11 })).resolves.toEqual({ released: 3 });
      await expect(media.rpc.call(MediaRpc.releaseSelfies, { userId, modelId: 11 })).resolves.toEqual({ released: 0 });
      await expect(media.rpc.call(MediaRpc.deleteSelfie, { userId, id: ids[0]! })).resolves.toEqual({ deleted: true });
      expect(await media.selfieCount(userId)).toBe(2);
    });

    it("should keep a selfie locked while another model's training still uses it", async () => {
      const userId = newUser();
      const [image] = await uploadSelfies(userId, 1);
      await media.rpc.call(MediaRpc.lockSelfiesForTraining, { userId, modelId: 21, imageIds: [image!.id] });
      await media.rpc.call(MediaRpc.lockSelfiesForTraining, { userId, modelId: 22, imageIds: [image!.id] });
      await media.rpc.call(MediaRpc.releaseSelfies, { userId, modelId: 21 });
      await expect(media.rpc.call(MediaRpc.deleteSelfie, { userId, id: image!.id })).rejects.toMatchObject({
        code: 'MEDIA.IMAGE_IN_USE',
      });
      await media.rpc.call(MediaRpc.releaseSelfies, { userId, modelId: 22 });
      await expect(media.rpc.call(MediaRpc.deleteSelfie, { userId, id: image!.id })).resolves.toEqual({
        deleted: true,
      });
    });

    it('should refuse the lock as a whole when one selfie is missing', async () => {
      const userId = newUser();
      const [image] = await uploadSelfies(userId, 1);
      await expect(
        media.rpc.call(MediaRpc.lockSelfiesForTraining, { userId, modelId: 31, imageIds: [image!.id, 999_999] }),
      ).rejects.toMatchObject({ code: 'COMMON.NOT_FOUND' });
      await expect(media.rpc.call(MediaRpc.listSelfies, { userId })).resolves.toMatchObject([{ inUse: false }]);
    });

    it('should make the database refuse to delete a locked selfie whatever the code does', async () => {
      const userId = newUser();
      const [image] = await uploadSelfies(userId, 1);
      await media.rpc.call(MediaRpc.lockSelfiesForTraining, { userId, modelId: 41, imageIds: [image!.id] });
      await expect(media.db.query(`DELETE FROM media.uploaded_images WHERE id = $1`, [image!.id])).rejects.toThrow(
        /training_locks_uploaded_image_fkey/,
      );
    });
  });

  describe('storing avatars', () => {
    it('should store one avatar per sourceRef however often it is asked, and delete the staged object', async () => {
      const userId = newUser();
      const stagingKey = await stage('job-7-0.png');
      const first = await storeAvatar(userId, 'job-7:0', stagingKey);
      expect(await media.storage.head(stagingKey)).toBeUndefined();

      // Asked again (a redelivered job), even with the staged object gone.
      const again = await storeAvatar(userId, 'job-7:0', stagingKey);
      expect(again).toEqual(first);
      const { rows } = await media.db.query(`SELECT id FROM media.avatars WHERE source_ref = 'job-7:0'`);
      expect(rows).toHaveLength(1);
      const keys = await media.objectsOf(userId);
      expect(keys).toHaveLength(2);
      expect(keys.sort()).toEqual([
        expect.stringMatching(new RegExp(`^users/${userId}/avatars/[0-9a-f-]{36}\\.jpg$`)),
        expect.stringMatching(new RegExp(`^users/${userId}/avatars/[0-9a-f-]{36}\\.thumb\\.webp$`)),
      ]);
      expect(first).toMatchObject({ promptText: 'portrait job-7:0', customModelId: null });
    });

    it('should store one avatar when the same sourceRef arrives twice at once', async () => {
      const userId = newUser();
      const [a, b] = await Promise.all([
        storeAvatar(userId, 'job-8:0', await stage('job-8-0-a.png')),
        storeAvatar(userId, 'job-8:0', await stage('job-8-0-b.png')),
      ]);
      expect(a.id).toBe(b.id);
      expect(await media.objectsOf(userId)).toHaveLength(2);
    });

    it('should refuse a staged object that is missing or not an image', async () => {
      const userId = newUser();
      await expect(storeAvatar(userId, 'job-9:0', 'staging/nothing-here.png')).rejects.toMatchObject({
        code: 'COMMON.NOT_FOUND',
      });
      const notAnImage = await stage('job-9-1.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
      await expect(storeAvatar(userId, 'job-9:1', notAnImage)).rejects.toMatchObject({
        code: 'MEDIA.INVALID_IMAGE',
        message: 'The generated image is not a JPEG, PNG, GIF or WebP image.',
      });
      expect((await media.rpc.call(MediaRpc.listAvatars, { userId })).items).toEqual([]);
      expect(await media.objectsOf(userId)).toEqual([]);
    });

    it('should list avatars newest first, an undated one last', async () => {
      const userId = newUser();
      const oldest = await storeAvatar(userId, 'job-10:0');
      const middle = await storeAvatar(userId, 'job-10:1');
      const newest = await storeAvatar(userId, 'job-10:2');
      await media.db.query(`UPDATE media.avatars SET created_at = NULL WHERE id = $1`, [middle.id]);
      await media.db.query(`UPDATE media.avatars SET created_at = now() - interval '1 day' WHERE id = $1`, [oldest.id]);
      const listed = (await media.rpc.call(MediaRpc.listAvatars, { userId })).items;
      expect(listed.map((avatar) => avatar.id)).toEqual([newest.id, oldest.id, middle.id]);
      expect(listed[2]!.createdAt).toBeNull();
    });

    it('should delete my avatar with its objects', async () => {
      const userId = newUser();
      const avatar = await storeAvatar(userId, 'job-11:0');
      await expect(media.rpc.call(MediaRpc.deleteAvatar, { userId, id: avatar.id })).resolves.toEqual({
        deleted: true,
      });
      expect((await media.rpc.call(MediaRpc.listAvatars, { userId })).items).toEqual([]);
      expect(await media.objectsOf(userId)).toEqual([]);
    });
  });
});

describe('download URLs for providers', () => {
  it('should give an absolute signed URL on PUBLIC_URL when storage has no presigned URLs', async () => {
    const media = await startMedia('public-url', { PUBLIC_URL: 'https://likeness.example/' });
    try {
      const { uploadedFiles } = await uploaded(await media.upload(5, [{ name: 'a.jpg', bytes: await jpeg(512, 512) }]));
      const { images } = await media.rpc.call(MediaRpc.lockSelfiesForTraining, {
        userId: 5,
        modelId: 1,
        imageIds: [uploadedFiles[0]!.id],
      });
      expect(images[0]!.downloadUrl).toMatch(
        /^https:\/\/likeness\.example\/api\/files\/users\/5\/selfies\/[0-9a-f-]{36}\.jpg\?expires=\d+&signature=[\w-]{43}$/,
      );
    } finally {
      await media.close();
    }
  });
});
