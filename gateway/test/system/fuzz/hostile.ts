import fc from 'fast-check';

/**
 * What an attacker sends instead of what a form would: text a database or a parser chokes on,
 * values of the wrong type, shapes that are not the contract's, and sizes at and past the limits.
 */

/** Text that has broken something somewhere: controls, broken UTF-16, look-alikes, injections, escapes. */
const NASTY_TEXT = [
  '',
  ' ',
  '   padded   ',
  '\u0000',
  'nul\u0000inside',
  '\u0007bell',
  '\u001b[31mred',
  'line\r\nbreak',
  '\t',
  '\ud800',
  '\udfff',
  'half \ud83d an emoji',
  '\ud83d\ude00',
  '\u202eright-to-left',
  '\u200b',
  '\ufeffbom',
  '\uffff',
  'e\u0301',
  'Z\u0337\u0327a\u0334l\u0335g\u0336o',
  '𝓤𝓷𝓲𝓬𝓸𝓭𝓮',
  'Zoë_李👩🏽‍🎤',
  '١٢٣',
  '１２３',
  '../../../etc/passwd',
  '..\\..\\windows',
  '%2e%2e%2f%2e%2e%2f',
  '%00',
  '%',
  '%ff%fe',
  '/',
  '//evil.test/x',
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '{{7*7}}${7*7}',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x1f',
  '9'.repeat(400),
  'true',
  'null',
  '[]',
  '{}',
];

/** Any UTF-16 code units, lone surrogates included: what a JSON string can carry. */
const anyCodeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) });

/** Characters whose size differs by encoding: one byte, two, three, a surrogate pair, one escaped in JSON. */
export const FILLERS = ['a', 'é', '€', '😀', '"', '\\', '\u0001'] as const;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 2, arbitrary: anyCodeUnits },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...FILLERS), fc.constantFrom(255, 256, 4097, 70_000))
      .map(([filler, length]) => filler.repeat(length)),
  },
);

/** Values of every JSON type, and numbers at the edges. */
export const wrongTyped: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    -0,
    1.5,
    2 ** 31,
    2 ** 53 + 2,
    -(2 ** 63),
    1e308,
    Number.MIN_VALUE,
    [],
    {},
    [null],
    { $gt: '' },
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(hostileString, wrongTyped);

/** Keys nobody should add: prototype pollution, fields only the server sets, broken text. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'userId', 'role', 'id', 'credits', 'admin', ''),
  hostileString.filter((key) => key.length < 300),
);

/** Nested arrays or objects, deeper than any parser should recurse. */
export const deeplyNested = (depth: number, kind: 'array' | 'object'): string =>
  kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Bodies no JSON parser should accept (or only just): cut off, doubled, wrongly encoded, too deep. */
export const malformedJson: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .constantFrom(
      '',
      ' ',
      '{',
      '[',
      '"',
      '{"a":',
      'nul',
      'undefined',
      "{'a':1}",
      '{"a":1,}',
      '{"a":1}garbage',
      '{"a":1}{"b":2}',
      '\ufeff{"a":1}',
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"admin":true}}}',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
      '{"a":"\\x41"}',
      '1e999999',
      '123456789012345678901234567890',
      '-',
      '{"a":NaN}',
      '{"a":1,"a":2}',
    )
    .map((text) => Buffer.from(text, 'utf8')),
  fc.constantFrom(
    // Not UTF-8 at all.
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    Buffer.from([0xc0, 0xaf]),
    Buffer.from('{"a":"b"}', 'utf16le'),
  ),
  fc
    .tuple(fc.constantFrom(1_000, 100_000, 500_000), fc.constantFrom('array' as const, 'object' as const))
    .map(([depth, kind]) => Buffer.from(deeplyNested(depth, kind))),
);

/** Content types for a JSON body: right, almost right, and wrong. */
export const contentTypes = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=utf-16',
      'application/json; charset="',
      'application/json, text/plain',
      'application/vnd.api+json',
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'multipart/form-data',
      'application/octet-stream',
      'image/png',
      ';;;',
      '*/*',
      '',
      undefined,
    ),
  },
);

/** A value for a header: what Node lets a client send (tab, printable latin1: no CR, LF, NUL or DEL), otherwise anything. */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '\u00ff\u00fe', 'null', '1', '-1', '99999999999999999999', 'a'.repeat(4_000), '%00', '..'),
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0xff }).map((code) => String.fromCharCode(code === 0x7f ? 0x09 : code)),
    maxLength: 80,
  }),
);
