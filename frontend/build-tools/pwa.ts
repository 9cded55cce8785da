import { VitePWA } from 'vite-plugin-pwa';
import { THEME_COLORS } from '../src/config/theme-colors.ts';

/** Served instead of a page the browser cannot reach (precached; see public/offline.html). */
export const OFFLINE_PAGE = '/offline.html';

const isNavigationToPage = ({ request, url }: { request: Request; url: URL }) =>
  request.mode === 'navigate' && !url.pathname.startsWith('/api/');

/**
 * The installable app: its manifest, and a Workbox service worker that precaches the build
 * (the app shell and its assets) and answers a page the network cannot fetch with the offline
 * page. It caches nothing at run time: API answers and the signed image URLs under /api always
 * go to the network. A new deploy's worker waits until the user chooses to reload.
 */
export function pwaPlugin() {
  return VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    includeAssets: ['favicon.svg', 'theme-init.js', 'offline.js', 'icons/apple-touch-icon.png'],
    manifest: {
      id: '/',
      name: 'Likeness — AI avatars from your selfies',
      short_name: 'Likeness',
      description: 'Transform your selfies into stunning AI avatars with just a few clicks.',
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
      background_color: THEME_COLORS.light,
      theme_color: THEME_COLORS.light,
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      // The prerendered public pages are navigations, which go to the network (below).
      globIgnores: ['**/node_modules/**/*', 'pages/**'],
      cleanupOutdatedCaches: true,
      // Navigations go to the network (a fresh index.html names the current build's files).
      navigateFallback: null,
      runtimeCaching: [
        {
          urlPattern: isNavigationToPage,
          handler: 'NetworkOnly',
          options: { precacheFallback: { fallbackURL: OFFLINE_PAGE } },
        },
      ],
    },
  });
}
