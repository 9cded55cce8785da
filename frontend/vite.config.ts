import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { classGroupsPlugin } from './build-tools/class-groups.ts';
import { precompressPlugin } from './build-tools/precompress.ts';
import { preloadFontPlugin } from './build-tools/preload-font.ts';
import { prerenderPlugin } from './build-tools/prerender.ts';
import { PUBLIC_CONTRACTS, PUBLIC_ENTRY, publicBuildPlugin } from './build-tools/public-build.ts';
import { pwaPlugin } from './build-tools/pwa.ts';
import { zodWithoutJsonSchemaPlugin } from './build-tools/zod-without-json-schema.ts';

// The gateway serves /api and the health probes; in development Vite forwards to it.
const gatewayUrl = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const proxiedPaths = ['/api', '/healthz', '/readyz'];

/** The app's own code: its sources and the contracts they bundle. */
const APP_CODE = ['./src/', '../libs/contracts/src/'].map((folder) => fileURLToPath(new URL(folder, import.meta.url)));

const alias = {
  // The contracts are TypeScript source shared with the backend; bundle them directly.
  '@likeness/contracts': fileURLToPath(new URL('../libs/contracts/src/index.ts', import.meta.url)),
  '@': fileURLToPath(new URL('./src', import.meta.url)),
};

/** The public pages run on Preact's React-compatible layer: a first visit downloads a tenth of react-dom. */
const PREACT_IN_PLACE_OF_REACT = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

/**
 * `--mode public`: the public pages' light bundle (build-tools/public-build.ts) and, with `--ssr`,
 * their prerendering. `npm run build` makes both before the app, whose build writes the pages.
 */
export const publicConfig = defineConfig(({ isSsrBuild }) => ({
  // The worker and the web manifest it writes are the app build's; its link to the manifest in the pages is needed here.
  plugins: [react(), tailwindcss(), classGroupsPlugin(), pwaPlugin(), publicBuildPlugin()],
  resolve: {
    alias: [
      ...PREACT_IN_PLACE_OF_REACT,
      ...Object.entries({ ...alias, '@likeness/contracts': PUBLIC_CONTRACTS }).map(([find, replacement]) => ({
        find,
        replacement,
      })),
    ],
  },
  // Prerendering bundles the libraries too, so that they draw with Preact as in the browser.
  ssr: { noExternal: true },
  build: {
    outDir: 'dist-public',
    emptyOutDir: true,
    sourcemap: 'hidden',
    manifest: !isSsrBuild,
    rolldownOptions: {
      ...(isSsrBuild ? {} : { input: PUBLIC_ENTRY }),
      output: {
        codeSplitting: {
          groups: [{ name: 'preact', test: /[\\/]node_modules[\\/]preact[\\/]/ }],
        },
      },
    },
  },
}));

export const appConfig = defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    classGroupsPlugin(),
    zodWithoutJsonSchemaPlugin(),
    pwaPlugin(),
    preloadFontPlugin({ fileName: /inter-latin-wght-normal-[\w-]+\.woff2$/ }),
    // The public pages as HTML, from the builds `npm run build` makes first (see package.json).
    prerenderPlugin({
      serverEntry: fileURLToPath(new URL('./dist-ssr/render-page.js', import.meta.url)),
      publicBuild: fileURLToPath(new URL('./dist-public', import.meta.url)),
    }),
    // Last: it compresses what the others wrote, the service worker included.
    precompressPlugin({ mapsDir: fileURLToPath(new URL('./dist-sourcemaps', import.meta.url)) }),
  ],
  resolve: { alias },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    // Host stays 127.0.0.1:5173 so the gateway's Origin check sees a same-origin request.
    proxy: Object.fromEntries(proxiedPaths.map((path) => [path, { target: gatewayUrl }])),
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    proxy: Object.fromEntries(proxiedPaths.map((path) => [path, { target: gatewayUrl }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps for debugging, moved out of the served folder by the precompress plugin.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            // What the first screen needs; `$initial` leaves out what only a lazy screen imports.
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'] },
            // Only the payment form needs Stripe: its own chunk stays out of the first load.
            { name: 'stripe', test: /[\\/]node_modules[\\/]@stripe[\\/]/ },
            // Only the admin dashboard's charts need recharts (and its D3 and Redux parts).
            { name: 'charts', test: /[\\/]node_modules[\\/]recharts[\\/]/ },
            // The app's own code that six screens or more load (the signed-in shell's parts, the API
            // client, the contracts' schemas): one file instead of a dozen small ones, each compressed
            // on its own, that a first load waited on (the dashboard's LCP, docs/benchmarks.md).
            { name: 'shared', test: (id) => APP_CODE.some((folder) => id.startsWith(folder)), minShareCount: 6 },
          ],
        },
      },
    },
  },
});

export default defineConfig((env) => (env.mode === 'public' ? publicConfig(env) : appConfig));
