import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerStaticSpa } from './static-spa.js';

const shareTags = (title: string) =>
  `<html><head><title>${title}</title>` +
  '<meta property="og:image" content="/images/share-preview.jpg" />' +
  '<meta name="twitter:image" content="/images/share-preview.jpg" /></head><body></body></html>';

describe(registerStaticSpa.name, () => {
  let staticDir: string;

  beforeAll(() => {
    staticDir = mkdtempSync(join(tmpdir(), 'likeness-static-spa-'));
    mkdirSync(join(staticDir, 'pages'));
    writeFileSync(join(staticDir, 'index.html'), shareTags('App'));
    writeFileSync(join(staticDir, 'pages/index.html'), shareTags('Landing'));
    writeFileSync(join(staticDir, 'pages/about.html'), shareTags('About'));
  });

  afterAll(() => rmSync(staticDir, { recursive: true, force: true }));

  async function serve(publicUrl?: string): Promise<FastifyInstance> {
    const app = Fastify();
    await registerStaticSpa(app, staticDir, { publicUrl });
    await app.ready();
    return app;
  }

  it.each([
    ['/', 'Landing'],
    ['/about', 'About'],
    ['/dashboard', 'App'],
  ])('should serve %s with its share image absolute on PUBLIC_URL', async (url, title) => {
    const app = await serve('https://likeness.example/');
    try {
      const answer = await app.inject({ url });

      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=UTF-8');
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.body).toContain(`<title>${title}</title>`);
      expect(answer.body).toContain(
        '<meta property="og:image" content="https://likeness.example/images/share-preview.jpg" />',
      );
      expect(answer.body).toContain(
        '<meta name="twitter:image" content="https://likeness.example/images/share-preview.jpg" />',
      );
    } finally {
      await app.close();
    }
  });

  it('should send the page compressed to a browser that accepts it', async () => {
    const app = await serve('https://likeness.example');
    try {
      const answer = await app.inject({ url: '/about', headers: { 'accept-encoding': 'gzip' } });

      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers.vary).toContain('Accept-Encoding');
      expect(gunzipSync(answer.rawPayload).toString()).toContain(
        'content="https://likeness.example/images/share-preview.jpg"',
      );
    } finally {
      await app.close();
    }
  });

  it('should serve the pages as built when no PUBLIC_URL is set', async () => {
    const app = await serve();
    try {
      const answer = await app.inject({ url: '/dashboard' });

      expect(answer.statusCode).toBe(200);
      expect(answer.body).toContain('<meta property="og:image" content="/images/share-preview.jpg" />');
    } finally {
      await app.close();
    }
  });
});
