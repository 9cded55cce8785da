import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The SPA's public pages (SPEC §2 route table) that search engines may list; the rest sits behind a sign-in. */
export const PUBLIC_PAGES = [
  '/',
  '/about',
  '/scene-explorer',
  '/privacy-policy',
  '/terms-of-service',
  '/cookie-policy',
  '/auth',
] as const;

/** Signed-in screens and the API: nothing for a crawler there. */
const DISALLOWED = [
  '/api/',
  '/dashboard',
  '/create',
  '/gallery',
  '/models',
  '/credits',
  '/checkout/',
  '/success',
  '/profile',
  '/admin',
];

/** The site's own origin as this request reached it (behind a trusted proxy, as the proxy says). */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

export function sitemapXml(origin: string): string {
  const urls = PUBLIC_PAGES.map((path) => `  <url><loc>${escapeXml(`${origin}${path}`)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/**
 * /robots.txt and /sitemap.xml for the public pages. They are written per request because both
 * must name the site's absolute address, which only the request knows (one build serves any host).
 * Never kept by a shared cache (the default no-store): one keyed by path alone would hand every
 * visitor the address a single request's Host header named.
 */
export function registerSiteIndex(app: FastifyInstance): void {
  app.get('/robots.txt', (request, reply) => {
    void reply.type('text/plain; charset=utf-8').send(robotsTxt(originOf(request)));
  });
  app.get('/sitemap.xml', (request, reply) => {
    void reply.type('application/xml; charset=utf-8').send(sitemapXml(originOf(request)));
  });
}
