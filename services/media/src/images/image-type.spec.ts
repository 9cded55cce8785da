import { sniffImageType } from './image-type.js';

const bytes = (...values: (number | string)[]) =>
  Buffer.concat(values.map((value) => (typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.of(value))));

describe(sniffImageType.name, () => {
  it.each([
    ['jpeg', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'JFIF')],
    ['png', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'IHDR')],
    ['gif', bytes('GIF87a', 1, 0, 1, 0)],
    ['gif', bytes('GIF89a', 1, 0, 1, 0)],
    ['webp', bytes('RIFF', 0x24, 0, 0, 0, 'WEBPVP8 ')],
  ])('should recognise %s by its magic bytes', (type, input) => {
    expect(sniffImageType(input)).toBe(type);
  });

  it.each([
    ['text renamed .png', bytes('hello, this is not an image')],
    ['an empty file', Buffer.alloc(0)],
    ['a cut-off PNG signature', bytes(0x89, 'PNG', 0x0d, 0x0a)],
    ['a RIFF that is not WebP', bytes('RIFF', 0x24, 0, 0, 0, 'WAVEfmt ')],
    ['an SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['a GIF of an unknown version', bytes('GIF90a', 1, 0, 1, 0)],
    ['HTML', bytes('<!doctype html><script>alert(1)</script>')],
  ])('should refuse %s', (_, input) => {
    expect(sniffImageType(input)).toBeUndefined();
  });
});
