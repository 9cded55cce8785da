const MAX_LENGTH = 255;
/** C0 and C1 controls, and the direction overrides that make `gpj.exe` read as `exe.jpg`. */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A sent file name fit to show back to its owner: the last path segment, without control or
 * direction-override characters, at most 255 characters. Only ever displayed; object keys are
 * random and never contain it.
 */
export function sanitizeFilename(raw: string | undefined, fallback = 'image'): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = base.normalize('NFC').replace(UNSAFE_CHARACTERS, '').trim();
  // By code points, so a cut never splits a surrogate pair.
  return [...cleaned].slice(0, MAX_LENGTH).join('') || fallback;
}
