/** The meta tags whose content is a link a crawler follows from outside: they must be absolute. */
const SHARE_URL_TAGS = ['og:image', 'og:image:url', 'og:image:secure_url', 'og:url', 'twitter:image'];

const META_TAG = /<meta\s[^>]*>/gi;
const TAG_NAME = /\s(?:property|name)="([^"]+)"/i;
const ROOT_RELATIVE_CONTENT = /(\scontent=")(\/(?!\/)[^"]*)"/i;

/**
 * The page's share links (Open Graph, Twitter cards) made absolute on `origin`: crawlers read
 * `/images/share-preview.jpg` as nothing, `https://example.com/images/share-preview.jpg` as the
 * preview. Links that are already absolute, and every other tag, are left as they are.
 */
export function absoluteShareUrls(html: string, origin: string): string {
  const base = origin.replace(/\/+$/, '');
  return html.replace(META_TAG, (tag) => {
    const name = TAG_NAME.exec(tag)?.[1]?.toLowerCase();
    if (!name || !SHARE_URL_TAGS.includes(name)) return tag;
    return tag.replace(
      ROOT_RELATIVE_CONTENT,
      (_match, attribute: string, path: string) => `${attribute}${base}${path}"`,
    );
  });
}
