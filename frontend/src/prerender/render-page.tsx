import { renderToString } from 'react-dom/server';
import { pageMetaFor, type PageMeta } from '@/app/page-meta';
import { paths } from '@/config/paths';
import { loadPublicPage, PublicSite } from '@/public/public-site';

/**
 * The public pages written to HTML at build time (build-tools/prerender.ts): a first visit
 * paints them from the HTML alone, and the public pages' entry (src/public/main.tsx) hydrates
 * what is already there. Built like that entry (`--mode public`), so both draw the same tree.
 */
export const PRERENDERED_PATHS = [
  paths.landing,
  paths.about,
  paths.privacyPolicy,
  paths.termsOfService,
  paths.cookiePolicy,
  paths.sceneExplorer,
] as const;

export interface RenderedPage {
  /** The markup of `#root`, as the page's first render in the browser draws it for a visitor. */
  html: string;
  meta: PageMeta;
}

/**
 * Renders one page as a first visit sees it before the session check answers: signed out,
 * the credit packs and the support address still loading.
 */
export async function renderPage(path: string): Promise<RenderedPage> {
  const Page = await loadPublicPage(path);
  const html = renderToString(
    <PublicSite location={{ pathname: path, search: '', hash: '', state: null }} Page={Page} />,
  );
  return { html, meta: pageMetaFor(path) };
}
