import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { LocalObjectStorage } from '@likeness/storage';
import sharp from 'sharp';
import { type RunningStack, queryDatabase } from './stack-harness.js';

export interface SeededAvatar {
  id: number;
  storage_key: string;
  thumbnail_key: string;
  prompt_text: string;
}

/** The stack's object storage, as media keeps it (files under DATA_DIR/objects). */
export const stackStorage = (stack: RunningStack) => new LocalObjectStorage(join(stack.env['DATA_DIR']!, 'objects'));

/** A noisy photo: a ZIP of a few hundred is far larger than every buffer on its way. */
export function noisyPhoto(size = 512): Promise<Buffer> {
  return sharp({
    create: {
      width: size,
      height: size,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * Avatars as media keeps them (a JPEG, a WebP thumbnail and a row), seeded straight into its
 * table and storage: generating hundreds would take minutes. Their dates repeat in threes and
 * the last few have none, so paging must break ties and place undated ones last.
 */
export async function seedAvatars(
  stack: RunningStack,
  userId: number,
  count: number,
  image: Buffer,
): Promise<SeededAvatar[]> {
  const storage = stackStorage(stack);
  const thumbnail = await sharp(image).resize(256).webp().toBuffer();
  const bases = Array.from({ length: count }, () => `users/${userId}/avatars/${randomUUID()}`);
  await Promise.all(
    bases.flatMap((base) => [
      storage.put(`${base}.jpg`, image, { contentType: 'image/jpeg' }),
      storage.put(`${base}.thumb.webp`, thumbnail, { contentType: 'image/webp' }),
    ]),
  );
  return queryDatabase<SeededAvatar>(
    stack.databaseUrl,
    `INSERT INTO media.avatars (user_id, prompt_text, custom_model_id, source_ref, share_token, storage_key, thumbnail_key, created_at)
     SELECT $1::int, 'portrait number ' || n || ' of user ' || $1::int, NULL, 'seed:' || base, md5(base) || md5(base || 'share'),
            base || '.jpg', base || '.thumb.webp',
            CASE WHEN n > $3::int - 4 THEN NULL ELSE timestamptz '2026-01-01' + (n / 3) * interval '1 minute' END
     FROM unnest($2::text[]) WITH ORDINALITY AS seeded(base, n)
     RETURNING id, storage_key, thumbnail_key, prompt_text`,
    [userId, bases, count],
  );
}
