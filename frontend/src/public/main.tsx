import { hydrateRoot } from 'react-dom/client';
import { listenForInstallPrompt } from '@/features/pwa/install-prompt';
import { loadPublicPage, PublicSite } from './public-site';
import '../index.css';

// The public pages' entry (build-tools/public-build.ts). It takes over the prerendered page once
// the page's code is there (for `/`, at once: its code is this bundle) and the drawn page has been
// painted (one frame: taking it over is the page's longest task, and the heading then paints
// first in every load), so a click works from the first moment it safely can. Links to the app's
// screens load the full app.

listenForInstallPrompt();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

/** Resolves once the browser has painted the next frame. */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

const { pathname, search, hash } = window.location;
void Promise.all([loadPublicPage(pathname), afterNextPaint()]).then(([Page]) =>
  hydrateRoot(container, <PublicSite location={{ pathname, search, hash, state: null }} Page={Page} />),
);
