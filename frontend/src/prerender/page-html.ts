import type { PageMeta } from '../app/page-meta.ts';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `/` is `index.html`, `/about` is `about.html`. */
export function pageFileName(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1)}.html`;
}

/** Sets a `<meta>`'s content by its name or property, failing loudly if index.html lost it. */
function withMeta(html: string, attribute: 'name' | 'property', key: string, content: string): string {
  const pattern = new RegExp(`(<meta\\s+${attribute}="${key}"\\s+content=")[^"]*(")`);
  if (!pattern.test(html)) throw new Error(`index.html has no <meta ${attribute}="${key}">`);
  return html.replace(pattern, (_match, start: string, end: string) => `${start}${escapeHtml(content)}${end}`);
}

/** index.html with a page's title, description and link preview texts, and its markup in `#root`. */
export function pageHtml(template: string, { html, meta }: { html: string; meta: PageMeta }): string {
  const root = '<div id="root"></div>';
  if (!template.includes(root)) throw new Error('index.html has no empty <div id="root">');
  let page = template.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(meta.title)}</title>`);
  page = withMeta(page, 'name', 'description', meta.description);
  for (const [attribute, key] of [
    ['property', 'og:title'],
    ['name', 'twitter:title'],
  ] as const) {
    page = withMeta(page, attribute, key, meta.title);
  }
  for (const [attribute, key] of [
    ['property', 'og:description'],
    ['name', 'twitter:description'],
  ] as const) {
    page = withMeta(page, attribute, key, meta.description);
  }
  return page.replace(root, () => `<div id="root">${html}</div>`);
}
