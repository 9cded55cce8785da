import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import { RedirectIfSignedIn, RequireAuth, type RouteHandle } from './route-guards';
import { RouteError } from './routes/route-error';

/** The first screen's code is still arriving (a moment on a fast link): nothing to show yet. */
function FirstLoad() {
  return null;
}

/** SPEC §2: the profile sends a visitor to /login (the same auth screen as /auth). */
const profileHandle: RouteHandle = { signInPath: paths.login };

/**
 * Every screen, grouped by who may see it, each loaded only when it is first shown: a route
 * module in ./routes exports its `Component`. New signed-in screens go under the AppLayout
 * children; /admin is one of them, and shows Access Denied to anyone but the administrator.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: FirstLoad,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, lazy: () => import('./routes/landing') },
          { path: 'about', lazy: () => import('./routes/about') },
          { path: 'privacy-policy', lazy: () => import('./routes/privacy-policy') },
          { path: 'terms-of-service', lazy: () => import('./routes/terms-of-service') },
          { path: 'cookie-policy', lazy: () => import('./routes/cookie-policy') },
          { path: 'scene-explorer', lazy: () => import('./routes/scene-explorer') },
          {
            element: <RedirectIfSignedIn />,
            children: [
              { path: 'auth', lazy: () => import('./routes/auth') },
              { path: 'login', lazy: () => import('./routes/auth') },
            ],
          },
          // Public whoever is signed in: a reset link opened in a browser with a session still works.
          { path: 'forgot-password', lazy: () => import('./routes/forgot-password') },
          { path: 'reset-password', lazy: () => import('./routes/reset-password') },
          { path: '*', lazy: () => import('./routes/not-found') },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: () => import('./layouts/app-layout').then(({ AppLayout }) => ({ Component: AppLayout })),
            children: [
              { path: 'dashboard', lazy: () => import('./routes/dashboard') },
              { path: 'create', lazy: () => import('./routes/create') },
              { path: 'gallery', lazy: () => import('./routes/gallery') },
              { path: 'models', lazy: () => import('./routes/models') },
              { path: 'credits', lazy: () => import('./routes/credits') },
              { path: 'checkout/:packageId', lazy: () => import('./routes/checkout') },
              { path: 'success', lazy: () => import('./routes/payment-result') },
              { path: 'profile', lazy: () => import('./routes/profile'), handle: profileHandle },
              { path: 'plans', lazy: () => import('./routes/plans') },
              { path: 'admin', lazy: () => import('./routes/admin') },
            ],
          },
        ],
      },
    ],
  },
];

/**
 * Lets a navigation ask to be committed at once (`navigate(to, { flushSync: true })`), which
 * leaving the signed-in screens before forgetting the session relies on. (What react-router/dom's
 * RouterProvider passes, without loading react-router twice under Vitest.)
 */
export const commitNow = (update: () => unknown): undefined => void flushSync(update);

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} flushSync={commitNow} />;
}
