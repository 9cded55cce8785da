import { hydrateRoot } from 'react-dom/client';
import { listenForInstallPrompt } from '@/features/pwa/install-prompt';
import { loadPublicPage, PublicSite } from './public-site';
import '../index.css';

// The public pages' entry (build-tools/public-build.ts): it takes over the prerendered page as
// soon as the page's code is there (for `/`, at once: its code is this bundle), so a click works
// from the first moment it can. Links to the app's screens load the full app.

listenForInstallPrompt();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const { pathname, search, hash } = window.location;
void loadPublicPage(pathname).then((Page) =>
  hydrateRoot(container, <PublicSite location={{ pathname, search, hash, state: null }} Page={Page} />),
);
