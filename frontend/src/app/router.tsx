import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { AuthPage } from '@/features/auth/components/auth-page';
import { ForgotPasswordPage } from '@/features/auth/components/forgot-password-page';
import { ResetPasswordPage } from '@/features/auth/components/reset-password-page';
import { GalleryPage } from '@/features/gallery/components/gallery-page';
import { AppLayout } from './layouts/app-layout';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import { RedirectIfSignedIn, RequireAuth, type RouteHandle } from './route-guards';
import { AdminRoute } from './routes/admin';
import { CheckoutRoute } from './routes/checkout';
import { CreateRoute } from './routes/create';
import { CreditsRoute } from './routes/credits';
import { DashboardRoute } from './routes/dashboard';
import { ModelsRoute } from './routes/models';
import { NotFoundPage } from './routes/not-found';
import { Component as LandingRoute } from './routes/landing';
import { PaymentResultRoute } from './routes/payment-result';
import { PlansRoute } from './routes/plans';
import { ProfileRoute } from './routes/profile';
import { RouteError } from './routes/route-error';

/** SPEC §2: the profile sends a visitor to /login (the same auth screen as /auth). */
const profileHandle: RouteHandle = { signInPath: paths.login };

/**
 * Every screen, grouped by who may see it. New signed-in screens go under the AppLayout
 * children; /admin is one of them, and shows Access Denied to anyone but the administrator.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          // Not lazy: deleting an account navigates here and then forgets the session, which needs
          // the navigation committed at once (a lazy route would leave the profile's guard in charge).
          { index: true, Component: LandingRoute },
          { path: 'about', lazy: () => import('./routes/about') },
          { path: 'privacy-policy', lazy: () => import('./routes/privacy-policy') },
          { path: 'terms-of-service', lazy: () => import('./routes/terms-of-service') },
          { path: 'cookie-policy', lazy: () => import('./routes/cookie-policy') },
          { path: 'scene-explorer', lazy: () => import('./routes/scene-explorer') },
          {
            element: <RedirectIfSignedIn />,
            children: [
              { path: 'auth', element: <AuthPage /> },
              { path: 'login', element: <AuthPage /> },
            ],
          },
          // Public whoever is signed in: a reset link opened in a browser with a session still works.
          { path: 'forgot-password', element: <ForgotPasswordPage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { path: 'dashboard', element: <DashboardRoute /> },
              { path: 'create', element: <CreateRoute /> },
              { path: 'gallery', element: <GalleryPage /> },
              { path: 'models', element: <ModelsRoute /> },
              { path: 'credits', element: <CreditsRoute /> },
              { path: 'checkout/:packageId', element: <CheckoutRoute /> },
              { path: 'success', element: <PaymentResultRoute /> },
              { path: 'profile', element: <ProfileRoute />, handle: profileHandle },
              { path: 'plans', element: <PlansRoute /> },
              { path: 'admin', element: <AdminRoute /> },
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
