import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}', 'build-tools/**/*.test.ts'],
      restoreMocks: true,
      unstubGlobals: true,
      css: false,
      // Whole pages render in jsdom; on a loaded 2-core CI machine some take longer than the default 5 s.
      testTimeout: 30_000,
    },
  }),
);
