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

/** What the built index.html loads: the app's entry script, its preloaded chunks and its styles. */
const APP_ASSET_TAGS = [
  /<script type="module"[^>]*\ssrc="\/assets\/[^"]+"[^>]*><\/script>\s*/g,
  /<link rel="modulepreload"[^>]*\shref="\/assets\/[^"]+"[^>]*>\s*/g,
  /<link rel="stylesheet"[^>]*\shref="\/assets\/[^"]+"[^>]*>\s*/g,
];

/** The files of the public pages' entry (build-tools/public-build.ts), as its build's manifest names them. */
export interface PublicEntryFiles {
  script: string;
  preloads: readonly string[];
  styles: readonly string[];
}

/**
 * The built index.html loading the public pages' entry in place of the app's: the same head
 * (theme script, font preload, meta tags), the light bundle.
 */
export function withPublicEntry(template: string, { script, preloads, styles }: PublicEntryFiles): string {
  const stripped = APP_ASSET_TAGS.reduce((html, tag) => html.replace(tag, ''), template);
  if (stripped === template) throw new Error("index.html loads none of the app's assets to replace");
  const tags = [
    `<script type="module" crossorigin src="/${script}"></script>`,
    ...preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...styles.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
  ];
  return stripped.replace('</head>', () => `  ${tags.join('\n    ')}\n  </head>`);
}
