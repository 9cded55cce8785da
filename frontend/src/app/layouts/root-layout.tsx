import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { FloatingCardStack } from '@/features/pwa/components/floating-card';
import { InstallPromptCard } from '@/features/pwa/components/install-prompt-card';
import { OfflineBanner } from '@/features/pwa/components/offline-banner';
import { PageMetaSync } from './page-meta-sync';

// The service worker's registration loads after the first screen.
const UpdatePrompt = lazy(() =>
  import('@/features/pwa/components/update-prompt').then((module) => ({ default: module.UpdatePrompt })),
);
const supportsServiceWorkers = typeof navigator !== 'undefined' && 'serviceWorker' in navigator;

/** Every screen, with what the app says about itself: connection, installation, a new version. */
export function RootLayout() {
  return (
    <>
      <PageMetaSync />
      <Outlet />
      <OfflineBanner />
      <FloatingCardStack>
        <InstallPromptCard />
        {/* The boundary is always there, so a prerendered page (no service workers in Node) hydrates. */}
        <Suspense fallback={null}>{supportsServiceWorkers ? <UpdatePrompt /> : null}</Suspense>
      </FloatingCardStack>
      <ScrollRestoration />
    </>
  );
}
