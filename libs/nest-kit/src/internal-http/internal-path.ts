import { DomainError } from '../errors/domain-error.js';

/**
 * Paths on our own apps' HTTP ports, built from a template and parameter values. Every internal
 * HTTP call goes through here, because such a call carries our internal token: a value that
 * could climb out of the template's prefix (`..`, an encoded slash, a second encoding) would
 * let a caller reach any route of the other app with our credentials.
 *
 * Templates name one path segment with `{name}` and one or more with `{name+}` (a value with
 * slashes, such as a storage key). Values are decoded text: each segment is checked, then
 * percent-encoded once; nothing in a value can end the path or start a query.
 */
export type PathParams = Readonly<Record<string, string | number>>;
export type QueryParams = Readonly<Record<string, string | number | undefined>>;

/** Why a value cannot be part of an internal path; tests and logs read it, users never do. */
export class UnsafePathError extends DomainError {
  constructor(readonly reason: string) {
    super('COMMON.VALIDATION_FAILED', 'This address is not valid.');
    this.name = 'UnsafePathError';
  }
}

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)(\+?)\}/g;
/** C0 and C1 control characters, DEL included: no address holds one. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A percent-encoded byte inside a decoded value means it was encoded twice. */
const ENCODED_BYTE = /%[0-9a-f]{2}/i;
const ORIGIN = 'http://internal.invalid';

/**
 * `/internal/files/{key+}` with `{ key: 'users/1/selfies/a.jpg' }` → `/internal/files/users/1/selfies/a.jpg`;
 * query values are appended URL-encoded, undefined ones left out.
 *
 * @throws UnsafePathError for a value that is empty, `.` or `..` (also in look-alike Unicode),
 * holds a slash or backslash where one segment is expected, a control character, or a
 * percent-encoded byte; and when the result would not stay under the template's prefix.
 */
export function internalPath(template: string, params: PathParams = {}, query: QueryParams = {}): string {
  const prefix = templatePrefix(template);
  const used = new Set<string>();
  const path = template.replace(PLACEHOLDER, (_match, name: string, many: string) => {
    const value = params[name];
    if (value === undefined) throw new UnsafePathError(`no value for {${name}}`);
    used.add(name);
    const text = String(value);
    const segments = many ? text.split('/') : [text];
    return segments.map((segment) => encodeSegment(checkedSegment(segment, name), name)).join('/');
  });
  for (const name of Object.keys(params)) {
    if (!used.has(name)) throw new UnsafePathError(`{${name}} is not in ${template}`);
  }
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const text = String(value);
    if (CONTROL.test(text)) throw new UnsafePathError(`a control character in the query value of ${name}`);
    search.append(name, text);
  }
  const built = search.size > 0 ? `${path}?${search}` : path;
  assertStaysUnder(built, prefix);
  return built;
}

/** The part of a template before its first parameter: every path built from it starts so. */
export function templatePrefix(template: string): string {
  if (!template.startsWith('/') || template.startsWith('//') || /[?#\\]/.test(template)) {
    throw new Error(`An internal path template is a path from the root, not ${JSON.stringify(template)}`);
  }
  const open = template.indexOf('{');
  return open === -1 ? template : template.slice(0, open);
}

/**
 * Asserts that `path` (with its query) reads the same to a WHATWG URL parser, which is how
 * `new URL()`, fetch and most proxies would see it, and that it stays under `prefix`.
 */
export function assertStaysUnder(path: string, prefix: string): void {
  const queryStart = path.indexOf('?');
  const pathname = queryStart === -1 ? path : path.slice(0, queryStart);
  let url: URL;
  try {
    url = new URL(path, ORIGIN);
  } catch {
    throw new UnsafePathError('not a URL path');
  }
  if (url.origin !== ORIGIN || url.pathname !== pathname || url.hash !== '') {
    throw new UnsafePathError(`${JSON.stringify(path)} does not read the same once normalised`);
  }
  if (!url.pathname.startsWith(prefix)) throw new UnsafePathError(`${JSON.stringify(path)} leaves ${prefix}`);
}

function checkedSegment(segment: string, name: string): string {
  // NFKC folds look-alikes (fullwidth `．`, one-dot leader `․`, fullwidth solidus) into what
  // a later normalisation step, a file system or another parser might turn them into.
  for (const form of new Set([segment, segment.normalize('NFKC')])) {
    if (form === '') throw new UnsafePathError(`an empty segment in {${name}}`);
    if (form === '.' || form === '..') throw new UnsafePathError(`a dot segment in {${name}}`);
    if (form.includes('/') || form.includes('\\')) throw new UnsafePathError(`a slash inside a segment of {${name}}`);
    if (CONTROL.test(form)) throw new UnsafePathError(`a control character in {${name}}`);
    if (ENCODED_BYTE.test(form)) throw new UnsafePathError(`an encoded byte in {${name}} (encoded twice)`);
  }
  return segment;
}

function encodeSegment(segment: string, name: string): string {
  try {
    return encodeURIComponent(segment);
  } catch {
    // A lone surrogate: no text a caller meant.
    throw new UnsafePathError(`a value of {${name}} that is not text`);
  }
}
