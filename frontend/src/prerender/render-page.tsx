import { text } from 'node:stream/consumers';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { pageMetaFor, type PageMeta } from '@/app/page-meta';
import { AppProviders } from '@/app/providers';
import { routes } from '@/app/router';
import { paths } from '@/config/paths';

/**
 * The public pages written to HTML at build time (build-tools/prerender.ts): a first visit
 * paints them from the HTML alone, and the app hydrates what is already there.
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
  /** The markup of `#root`, as the app's first render in the browser draws it for a visitor. */
  html: string;
  meta: PageMeta;
}

/**
 * Renders one page as a first visit sees it before the session check answers: signed out,
 * the credit packs and the support address still loading. Lazy routes and components are
 * waited for, so the HTML holds the whole page.
 */
export async function renderPage(path: string): Promise<RenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${path} answered ${context.status} instead of a page`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const { prelude } = await prerenderToNodeStream(
    // The same tree as main.tsx's, so hydration finds what it would have drawn.
    <StrictMode>
      <AppProviders>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  return { html: await text(prelude), meta: pageMetaFor(path) };
}
