import type { Avatar, AvatarsPage, UploadedImage } from '@likeness/contracts';

/** An avatar as GET /api/avatars lists it; `createdAt` defaults to `id` days after 1 June 2025. */
export function makeAvatar(id: number, overrides: Partial<Avatar> = {}): Avatar {
  return {
    id,
    promptText: `ada as an astronaut, portrait ${id}`,
    imageUrl: `/api/files/avatars/${id}.png?sig=abc`,
    thumbnailUrl: `/api/files/avatars/${id}-thumb.webp?sig=abc`,
    shareUrl: `/api/shared/avatars/token-${id}`,
    customModelId: 1,
    createdAt: new Date(Date.UTC(2025, 5, 1 + id, 12)).toISOString(),
    favourite: false,
    ...overrides,
  };
}

/** GET /api/avatars's answer holding these avatars: the last page unless a next cursor is given. */
export function avatarsPage(
  avatars: Avatar[],
  { nextCursor = null, total = avatars.length }: { nextCursor?: string | null; total?: number } = {},
): AvatarsPage {
  return { items: avatars, nextCursor, total };
}

/** A selfie as GET /api/uploaded-images lists it. */
export function makeSelfie(id: number, overrides: Partial<UploadedImage> = {}): UploadedImage {
  return {
    id,
    imageUrl: `/api/files/selfies/${id}.jpg?sig=abc`,
    thumbnailUrl: `/api/files/selfies/${id}-thumb.webp?sig=abc`,
    originalFilename: `selfie-${id}.jpg`,
    inUse: false,
    createdAt: new Date(Date.UTC(2025, 5, 1, 12, id)).toISOString(),
    ...overrides,
  };
}

/** `count` selfies, newest first as the server lists them (ids count..1). */
export function makeSelfies(count: number): UploadedImage[] {
  return Array.from({ length: count }, (_, index) => makeSelfie(count - index));
}

/** A picked file of the given type and size (the content is filler). */
export function makeImageFile(name: string, { type = 'image/jpeg', size = 1024 } = {}): File {
  return new File([new Uint8Array(size)], name, { type, lastModified: 1_750_000_000_000 });
}
