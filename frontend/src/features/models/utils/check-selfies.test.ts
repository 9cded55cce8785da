import { uploadMessages } from '@likeness/contracts';
import { describe, expect, it } from 'vitest';
import { makeImageFile } from '@/test/media-fixtures';
import { checkSelfieCount, checkSelfieFile } from './check-selfies';

describe(checkSelfieCount.name, () => {
  it('should let files through while there is room', () => {
    expect(checkSelfieCount({ stored: 10, selected: 0, adding: 20 })).toBeNull();
    expect(checkSelfieCount({ stored: 25, selected: 2, adding: 3 })).toBeNull();
  });

  it('should refuse at the limit, then over 20 at once, then over the room left', () => {
    expect(checkSelfieCount({ stored: 30, selected: 0, adding: 1 })).toEqual({
      title: 'Upload limit reached',
      description: uploadMessages.limitReached,
    });
    expect(checkSelfieCount({ stored: 5, selected: 0, adding: 21 })).toEqual({
      title: 'Too many files',
      description: uploadMessages.tooManyAtOnce,
    });
    expect(checkSelfieCount({ stored: 0, selected: 15, adding: 6 })?.description).toBe(uploadMessages.tooManyAtOnce);
    expect(checkSelfieCount({ stored: 26, selected: 1, adding: 4 })).toEqual({
      title: 'Too many files',
      description: uploadMessages.remaining(3),
    });
  });
});

describe(checkSelfieFile.name, () => {
  it('should accept the server types up to 5 MB, and a typeless file named like an image', () => {
    expect(checkSelfieFile(makeImageFile('a.webp', { type: 'image/webp', size: 5 * 1024 * 1024 }))).toBeNull();
    expect(checkSelfieFile(makeImageFile('IMG_1.JPG', { type: '' }))).toBeNull();
  });

  it('should name the file that is not an image or too large', () => {
    expect(checkSelfieFile(makeImageFile('photo.heic', { type: 'image/heic' }))).toBe(
      uploadMessages.notAnImage('photo.heic'),
    );
    expect(checkSelfieFile(makeImageFile('big.gif', { type: 'image/gif', size: 5 * 1024 * 1024 + 1 }))).toBe(
      uploadMessages.tooLarge('big.gif'),
    );
  });
});
