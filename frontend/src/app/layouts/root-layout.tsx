import { Outlet, ScrollRestoration } from 'react-router';
import { PageMetaSync } from './page-meta-sync';

export function RootLayout() {
  return (
    <>
      <PageMetaSync />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
