import { defineConfig, mergeConfig, type ViteUserConfig } from 'vitest/config';
import { appConfig, publicConfig } from './vite.config.ts';

type TestSettings = NonNullable<ViteUserConfig['test']>;

const settings: TestSettings = {
  environment: 'jsdom',
  setupFiles: ['./src/test/setup.ts'],
  restoreMocks: true,
  unstubGlobals: true,
  css: false,
  // Whole pages render in jsdom; on a loaded 2-core CI machine some take longer than the default 5 s.
  testTimeout: 30_000,
};

/** The public pages' own bundle (build-tools/public-build.ts): its tests and its prerendering. */
const PUBLIC_TESTS = ['src/**/*.public.test.{ts,tsx}', 'src/prerender/**/*.test.{ts,tsx}'];

export default defineConfig((env) => ({
  test: {
    projects: [
      mergeConfig(appConfig, {
        test: {
          ...settings,
          name: 'app',
          include: ['src/**/*.test.{ts,tsx}', 'build-tools/**/*.test.ts'],
          exclude: PUBLIC_TESTS,
        },
      }),
      mergeConfig(publicConfig({ ...env, mode: 'public' }), {
        // Testing Library's act(), from Preact's test utilities.
        resolve: { alias: [{ find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' }] },
        test: {
          ...settings,
          name: 'public',
          include: PUBLIC_TESTS,
          // Bundled like the build, so that the libraries (Testing Library's too) draw with Preact.
          deps: {
            optimizer: {
              client: {
                enabled: true,
                include: [
                  'preact',
                  'preact/hooks',
                  'preact/compat',
                  'preact/compat/client',
                  'preact/compat/server',
                  'preact/compat/jsx-runtime',
                  'preact/compat/jsx-dev-runtime',
                  'preact/test-utils',
                  'lucide-react',
                  '@radix-ui/*',
                  '@testing-library/react',
                ],
              },
            },
          },
        },
      }),
    ],
  },
}));
