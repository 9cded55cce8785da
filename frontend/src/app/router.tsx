import { useState } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { AuthPage } from '@/features/auth/components/auth-page';
import { GalleryPage } from '@/features/gallery/components/gallery-page';
import { AppLayout } from './layouts/app-layout';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import { RedirectIfSignedIn, RequireAuth, RootRedirect } from './route-guards';
import { CheckoutRoute } from './routes/checkout';
import { CreateRoute } from './routes/create';
import { CreditsRoute } from './routes/credits';
import { DashboardRoute } from './routes/dashboard';
import { ModelsRoute } from './routes/models';
import { NotFoundPage } from './routes/not-found';
import { PaymentResultRoute } from './routes/payment-result';
import { RouteError } from './routes/route-error';

/**
 * Every screen, grouped by who may see it. New signed-in screens (/profile) go under the
 * AppLayout children; /admin gets its own guard there too.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      // The landing page replaces this redirect in a later issue.
      { index: true, element: <RootRedirect /> },
      {
        element: <PublicLayout />,
        children: [
          {
            element: <RedirectIfSignedIn />,
            children: [
              { path: 'auth', element: <AuthPage /> },
              { path: 'login', element: <AuthPage /> },
            ],
          },
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
            ],
          },
        ],
      },
    ],
  },
];

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
