// Whether the browser takes these pages over as they are drawn is checked on the built pages, in
// a real browser (gateway/test/browser/public-site.browser-spec.ts).
import { describe, expect, it } from 'vitest';
// The app's own index.html, as the build's prerendering fills it.
import template from '../../index.html?raw';
import { pageFileName, pageHtml, withPublicEntry } from './page-html';
import { PRERENDERED_PATHS, renderPage } from './render-page';

describe('renderPage', () => {
  it("should draw the landing page as a visitor's first view: the examples, no packs yet", async () => {
    const { html, meta } = await renderPage('/');

    expect(html).toMatch(
      /<h1 id="hero-title"[^>]*>Turn your selfies into <span[^>]*>realistic AI photos<\/span><\/h1>/,
    );
    expect(html).toContain('aria-label="Example avatars"');
    expect(html).toMatch(/href="\/auth"[^>]*>Log In<\/a>/);
    // The packs and the support address are the server's, filled in when the app runs.
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('our support team');
    expect(meta.title).toBe('Likeness — AI avatars from your selfies');
  });

  it.each([
    ['/about', 'About Likeness', 'About · Likeness'],
    ['/privacy-policy', 'Privacy Policy', 'Privacy Policy · Likeness'],
    ['/terms-of-service', 'Terms of Service', 'Terms of Service · Likeness'],
    ['/cookie-policy', 'Cookie Policy', 'Cookie Policy · Likeness'],
    ['/scene-explorer', 'Transformation Scene Explorer', 'Transformation Scene Explorer · Likeness'],
  ])('should draw the lazy route %s whole, with its own title', async (path, heading, title) => {
    const { html, meta } = await renderPage(path);

    expect(PRERENDERED_PATHS).toContain(path);
    expect(html).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
    expect(meta.title).toBe(title);
  });
});

describe('pageHtml', () => {
  it("should put the page in #root and its texts in the title and the description's meta tags, escaped", () => {
    const page = pageHtml(template, {
      html: '<main>Hi</main>',
      meta: { title: 'Terms & "Rules" · Likeness', description: 'Read <this>.' },
    });

    expect(page).toContain('<div id="root"><main>Hi</main></div>');
    expect(page).toContain('<title>Terms &amp; &quot;Rules&quot; · Likeness</title>');
    expect(page).toMatch(/name="description"\s+content="Read &lt;this&gt;\."/);
    expect(page).toContain('<meta property="og:title" content="Terms &amp; &quot;Rules&quot; · Likeness" />');
    expect(page).toMatch(/name="twitter:description"\s+content="Read &lt;this&gt;\."/);
    // The rest of index.html stays as it is: the link preview's picture, the scripts.
    expect(page).toContain('<meta property="og:image" content="/images/share-preview.jpg" />');
    expect(page).toContain('<script type="module" src="/src/main.tsx"></script>');
  });

  it('should refuse an index.html whose #root or meta tags it cannot find', () => {
    const page = { html: '', meta: { title: 'T', description: 'D' } };

    expect(() => pageHtml(template.replace('<div id="root"></div>', '<div id="app"></div>'), page)).toThrow(
      'index.html has no empty <div id="root">',
    );
    expect(() => pageHtml(template.replace('og:title', 'og:name'), page)).toThrow('og:title');
  });

  it('should name the files after the paths', () => {
    expect(PRERENDERED_PATHS.map(pageFileName)).toEqual([
      'index.html',
      'about.html',
      'privacy-policy.html',
      'terms-of-service.html',
      'cookie-policy.html',
      'scene-explorer.html',
    ]);
  });
});

describe('withPublicEntry', () => {
  const built = [
    '<head>',
    '<script src="/theme-init.js"></script>',
    '<link rel="preload" href="/assets/inter-1.woff2" as="font" type="font/woff2" crossorigin>',
    '<script type="module" crossorigin src="/assets/index-1.js"></script>',
    '<link rel="modulepreload" crossorigin href="/assets/react-1.js">',
    '<link rel="modulepreload" crossorigin href="/assets/vendor-1.js">',
    '<link rel="stylesheet" crossorigin href="/assets/index-1.css">',
    '</head>',
  ].join('\n');

  it("should load the public pages' entry in place of the app's, keeping the rest of the head", () => {
    const page = withPublicEntry(built, {
      script: 'assets/main-2.js',
      preloads: ['assets/react-2.js'],
      styles: ['assets/main-2.css'],
    });

    expect(page).not.toMatch(/index-1|react-1|vendor-1/);
    expect(page).toContain('<script src="/theme-init.js"></script>');
    expect(page).toContain('href="/assets/inter-1.woff2" as="font"');
    expect(page).toContain('<script type="module" crossorigin src="/assets/main-2.js"></script>');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/react-2.js">');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/main-2.css">');
  });

  it("should refuse an index.html without the app's assets", () => {
    expect(() => withPublicEntry('<head></head>', { script: 'a.js', preloads: [], styles: [] })).toThrow(
      "index.html loads none of the app's assets",
    );
  });
});
