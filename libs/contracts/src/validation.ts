import { z } from 'zod';

/** What a person reads when a field holds text we cannot store faithfully. */
export const ILL_FORMED_TEXT_MESSAGE =
  'This text contains characters we cannot accept (invisible control characters or a broken symbol). Please remove them.';

/** NUL (PostgreSQL cannot store it) and the C0 controls that are never typed, save tab and line breaks. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const FORBIDDEN_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
/** In unicode mode a surrogate pair reads as one code point, so this finds only unpaired halves. */
const LONE_SURROGATE = /\p{Cs}/u;
const MAX_DEPTH = 32;

/** Whether a string is text we can store as sent: no forbidden controls, no unpaired surrogates. */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value) && !FORBIDDEN_CONTROLS.test(value);
}

/** The path of the first string (or object key) in a request that is not well-formed text. */
export function findIllFormedText(value: unknown, path: PropertyKey[] = [], depth = 0): PropertyKey[] | undefined {
  if (typeof value === 'string') return isWellFormedText(value) ? undefined : path;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  const entries: [PropertyKey, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    if (typeof key === 'string' && !isWellFormedText(key)) return [...path, key];
    const found = findIllFormedText(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Parses a request (an HTTP body or query, an RPC request) with its contract, after refusing any
 * text in it that is not well-formed, whatever the contract's own string rules: every contract
 * gets it, and no NUL ever reaches the database.
 */
export function safeParseRequest<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const path = findIllFormedText(value);
  if (path) {
    const issue = { code: 'custom' as const, path, message: ILL_FORMED_TEXT_MESSAGE, input: undefined };
    return { success: false, error: new z.ZodError([issue]) } as z.ZodSafeParseResult<z.output<S>>;
  }
  return schema.safeParse(value);
}
