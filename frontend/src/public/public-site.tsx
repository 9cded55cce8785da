import { StrictMode, type ComponentType } from 'react';
import { AppProviders } from '@/app/providers';
import { PublicLayout } from '@/app/layouts/public-layout';
import { RootLayout } from '@/app/layouts/root-layout';
import { Component as LandingRoute } from '@/app/routes/landing';
import { paths } from '@/config/paths';
import { LightRouter, type LightLocation } from './light-router';

// The public pages as their own small app (build-tools/public-build.ts): the full app's layouts
// and pages, without its router and query client. The prerendered HTML is this tree's first
// render (src/prerender/render-page.tsx), and src/public/main.tsx takes it over.

type PageModule = { Component: ComponentType };

/** Each public page's code; `/` comes with the entry, the others load as the page opens. */
export const publicPages: Record<string, () => Promise<PageModule>> = {
  [paths.landing]: () => Promise.resolve({ Component: LandingRoute }),
  [paths.about]: () => import('@/app/routes/about'),
  [paths.privacyPolicy]: () => import('@/app/routes/privacy-policy'),
  [paths.termsOfService]: () => import('@/app/routes/terms-of-service'),
  [paths.cookiePolicy]: () => import('@/app/routes/cookie-policy'),
  [paths.sceneExplorer]: () => import('@/app/routes/scene-explorer'),
};

/** The page drawn at `pathname`, its code loaded; throws for a path that is not a public page. */
export async function loadPublicPage(pathname: string): Promise<ComponentType> {
  const load = publicPages[pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname];
  if (!load) throw new Error(`${pathname} is not a public page`);
  return (await load()).Component;
}

export function PublicSite({ location, Page }: { location: LightLocation; Page: ComponentType }) {
  return (
    <StrictMode>
      <AppProviders>
        <LightRouter
          location={location}
          layers={[<RootLayout key="root" />, <PublicLayout key="public" />, <Page key="page" />]}
        />
      </AppProviders>
    </StrictMode>
  );
}
