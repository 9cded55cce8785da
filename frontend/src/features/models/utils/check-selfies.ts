import { ACCEPTED_IMAGE_TYPES, SELFIE_LIMITS, uploadMessages } from '@likeness/contracts';

/** A refusal, worded as the toast shows it. */
export interface SelfieProblem {
  title: string;
  description: string;
}

/** The picker's `accept`: the types the server takes. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_IMAGE_TYPES.join(',');

const acceptedTypes: readonly string[] = ACCEPTED_IMAGE_TYPES;
const acceptedExtensions = /\.(jpe?g|png|gif|webp)$/i;

/**
 * SPEC §5, as the server checks it: no room left, too many in one upload, more than the room
 * left. `stored` are the selfies kept already, `selected` those waiting to be uploaded,
 * `adding` the files just picked or dropped.
 */
export function checkSelfieCount({
  stored,
  selected,
  adding,
}: {
  stored: number;
  selected: number;
  adding: number;
}): SelfieProblem | null {
  const room = SELFIE_LIMITS.maxStored - stored - selected;
  if (room <= 0) return { title: 'Upload limit reached', description: uploadMessages.limitReached };
  if (selected + adding > SELFIE_LIMITS.maxPerUpload) {
    return { title: 'Too many files', description: uploadMessages.tooManyAtOnce };
  }
  if (adding > room) return { title: 'Too many files', description: uploadMessages.remaining(room) };
  return null;
}

/** The server's message when a file is not an accepted image or is too large; null when it may go. */
export function checkSelfieFile(file: File): string | null {
  // Some systems report no type: the name decides then (the server reads the bytes anyway).
  const isImage = file.type ? acceptedTypes.includes(file.type) : acceptedExtensions.test(file.name);
  if (!isImage) return uploadMessages.notAnImage(file.name);
  if (file.size > SELFIE_LIMITS.maxFileBytes) return uploadMessages.tooLarge(file.name);
  return null;
}

/** Whether two picks are the same file (chosen twice). */
export function isSameFile(a: File, b: File): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;
}
