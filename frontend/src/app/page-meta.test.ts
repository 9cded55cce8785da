import { describe, expect, it } from 'vitest';
import { DEFAULT_META, pageMetaFor } from './page-meta';

describe(pageMetaFor.name, () => {
  it("should give the landing page the product's own title", () => {
    expect(pageMetaFor('/')).toBe(DEFAULT_META);
  });

  it('should title public and signed-in pages after the page', () => {
    expect(pageMetaFor('/scene-explorer').title).toBe('Transformation Scene Explorer · Likeness');
    expect(pageMetaFor('/gallery').title).toBe('Gallery · Likeness');
    expect(pageMetaFor('/checkout/creator').title).toBe('Checkout · Likeness');
  });

  it('should title an unknown address as not found', () => {
    expect(pageMetaFor('/no-such-page').title).toBe('Page Not Found · Likeness');
  });
});
