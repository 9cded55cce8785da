import { absoluteShareUrls } from './share-urls.js';

describe(absoluteShareUrls.name, () => {
  it('should make the Open Graph and Twitter images and the page URL absolute on the origin', () => {
    const html = [
      '<meta property="og:image" content="/images/share-preview.jpg" />',
      '<meta name="twitter:image" content="/images/share-preview.jpg" />',
      '<meta property="og:url" content="/about" />',
    ].join('\n');

    expect(absoluteShareUrls(html, 'https://likeness.example/')).toBe(
      [
        '<meta property="og:image" content="https://likeness.example/images/share-preview.jpg" />',
        '<meta name="twitter:image" content="https://likeness.example/images/share-preview.jpg" />',
        '<meta property="og:url" content="https://likeness.example/about" />',
      ].join('\n'),
    );
  });

  it('should leave absolute links, other tags and other meta tags as they are', () => {
    const html = [
      '<meta property="og:image" content="https://cdn.example/preview.jpg" />',
      '<meta property="og:image" content="//cdn.example/preview.jpg" />',
      '<meta property="og:title" content="/not-a-link" />',
      '<link rel="icon" href="/favicon.svg" />',
    ].join('\n');

    expect(absoluteShareUrls(html, 'https://likeness.example')).toBe(html);
  });
});
