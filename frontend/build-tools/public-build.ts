import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The public pages' entry: it takes over their prerendered HTML (build-tools/prerender.ts). */
export const PUBLIC_ENTRY = 'src/public/main.tsx';

/** Libraries the public pages' bundle must do without (the first visit's budget, docs/benchmarks.md). */
export const PUBLIC_FORBIDDEN = ['react-router', 'react-router-dom', '@tanstack/react-query', 'zod'] as const;

const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

/** What the public pages import in place of a library or a module of the full app. */
const substitutes: Record<string, string> = {
  // Links are plain links there: another screen is a page load, which the full app takes over.
  'react-router': src('public/light-router.tsx'),
};

/**
 * `@likeness/contracts` there: only the prices, without the schemas (and zod); API answers are
 * checked by the `.public` twins. (An alias of the build's config, which resolves before plugins.)
 */
export const PUBLIC_CONTRACTS = fileURLToPath(new URL('../../libs/contracts/src/costs.ts', import.meta.url));

/**
 * The public pages' own build (`vite build --mode public`): the same components as the full app,
 * light, on Preact (vite.config.ts aliases React to `preact/compat` in that mode). A module of the app with a `.public.ts(x)` twin beside it (e.g. the auth provider, the
 * data hooks) is replaced by the twin, which reads the API without TanStack Query and zod; the
 * libraries above are replaced, and importing another of PUBLIC_FORBIDDEN fails the build.
 */
export function publicBuildPlugin(): Plugin {
  return {
    name: 'likeness:public-build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const substitute = substitutes[source];
      if (substitute) return substitute;
      if ((PUBLIC_FORBIDDEN as readonly string[]).some((name) => source === name || source.startsWith(`${name}/`))) {
        this.error(`The public pages' bundle must not load ${source} (imported by ${importer ?? 'the entry'})`);
      }
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external || resolved.id.includes('/node_modules/')) return resolved;
      const twin = resolved.id.replace(/\.(tsx?)$/, '.public.$1');
      return twin !== resolved.id && twin !== importer && existsSync(twin) ? twin : resolved;
    },
  };
}
