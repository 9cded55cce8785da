import { sanitizeFilename } from './filename.js';

describe(sanitizeFilename.name, () => {
  it('should keep an ordinary name as it is', () => {
    expect(sanitizeFilename('me at the beach (2).jpg')).toBe('me at the beach (2).jpg');
    expect(sanitizeFilename('Çağla 写真.png')).toBe('Çağla 写真.png');
  });

  it('should keep only the last path segment when a name carries a path', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFilename('C:\\Users\\me\\selfie.jpg')).toBe('selfie.jpg');
  });

  it('should drop control and direction-override characters', () => {
    expect(sanitizeFilename('evil\u0000\r\nname.jpg')).toBe('evilname.jpg');
    expect(sanitizeFilename('photo\u202egpj.exe')).toBe('photogpj.exe');
  });

  it('should cut a long name at 255 characters without splitting a character', () => {
    expect(sanitizeFilename('a'.repeat(300))).toHaveLength(255);
    const emoji = sanitizeFilename('😀'.repeat(300));
    expect([...emoji]).toHaveLength(255);
    // A lone surrogate would not survive a UTF-8 round trip.
    expect(Buffer.from(emoji, 'utf8').toString('utf8')).toBe(emoji);
  });

  it('should fall back when nothing is left', () => {
    expect(sanitizeFilename(undefined)).toBe('image');
    expect(sanitizeFilename('  \u0001 ')).toBe('image');
    expect(sanitizeFilename('dir/')).toBe('image');
  });
});
