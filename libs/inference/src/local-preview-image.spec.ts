import { selfieIndex, treatmentFor } from './local-preview-image.js';

describe(treatmentFor.name, () => {
  it.each([
    ['ohwx, watercolor, golden hour, close-up', { style: 'watercolor', lighting: 'golden-hour', shot: 'close-up' }],
    ['ohwx, pencil sketch, full body', { style: 'pencil-sketch', shot: 'full-body' }],
    ['ohwx, Oil Painting, studio lighting, portrait', { style: 'oil-painting', lighting: 'studio', shot: 'portrait' }],
    ['ohwx, black and white, moody, wide shot', { style: 'black-and-white', lighting: 'moody', shot: 'full-body' }],
    ['ohwx, pop art, soft light', { style: 'pop-art', lighting: 'soft', shot: 'portrait' }],
    ['ohwx, anime, low-key lighting, close up', { style: 'anime', lighting: 'moody', shot: 'close-up' }],
    ['ohwx, neon lights', { style: 'cyberpunk', lighting: 'neon', shot: 'portrait' }],
    ['ohwx, high quality portrait', { shot: 'portrait' }],
  ])('should read %j', (prompt, treatment) => {
    expect(treatmentFor(prompt)).toEqual(treatment);
  });

  it('should ignore the negative prompt after the blank line', () => {
    const prompt =
      'ohwx, watercolor, high quality, detailed, professional\n\nblurry, out of focus, cartoonish, harsh shadows';
    expect(treatmentFor(prompt)).toEqual({ style: 'watercolor', shot: 'portrait' });
  });
});

describe(selfieIndex.name, () => {
  it('should pick the same selfie for the same prompt, index and seed', () => {
    expect(selfieIndex('ohwx, anime', 1, 5)).toBe(selfieIndex('ohwx, anime', 1, 5));
    expect(selfieIndex('ohwx, anime', 1, 5, 42)).toBe(selfieIndex('ohwx, anime', 1, 5, 42));
  });

  it('should spread the outputs of a prompt over the selfies', () => {
    const picks = new Set(Array.from({ length: 12 }, (_, index) => selfieIndex('ohwx, anime', index, 3)));
    expect(picks.size).toBeGreaterThan(1);
    for (const pick of picks) expect(pick).toBeLessThan(3);
  });
});
