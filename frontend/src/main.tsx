import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { AppRouter, loadRouteModules } from './app/router';
import { listenForInstallPrompt } from './features/pwa/install-prompt';
import './index.css';

listenForInstallPrompt();

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

const app = (
  <StrictMode>
    <AppProviders>
      <AppRouter />
    </AppProviders>
  </StrictMode>
);

/** Resolves once the browser has painted the next frame. */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

// A public page arrives drawn (src/prerender): the app takes over the markup that is there, once
// the page's lazy route code has arrived so its first render matches it, and after the drawn page
// has been painted whole (taking it over is the page's longest task). Should the route's code fail
// to arrive (a deploy replaced it), the app takes over all the same: its lazy route retries and
// shows its own error, instead of leaving a drawn page that never answers a click.
// Other paths start empty.
if (container.hasChildNodes()) {
  void Promise.allSettled([loadRouteModules(window.location.pathname), afterNextPaint()]).then(() =>
    hydrateRoot(container, app),
  );
} else {
  createRoot(container).render(app);
}
