import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { pageFileName, pageHtml } from '../src/prerender/page-html.ts';
import type { RenderedPage } from '../src/prerender/render-page.tsx';

/** Where the prerendered pages go in the build; the gateway serves `pages/<name>.html` for `/<name>`. */
export const PAGES_DIR = 'pages';

interface ServerEntry {
  PRERENDERED_PATHS: readonly string[];
  renderPage: (path: string) => Promise<RenderedPage>;
}

/**
 * Writes the public pages as HTML after the client build, from the SSR build of
 * src/prerender/render-page.tsx (`serverEntry`, built first): the built index.html with each
 * page's markup and meta tags. Runs before the service worker and the compressed twins are made.
 */
export function prerenderPlugin({ serverEntry }: { serverEntry: string }): Plugin {
  let outDir = '';
  return {
    name: 'likeness:prerender',
    apply: (_config, { command, isSsrBuild }) => command === 'build' && !isSsrBuild,
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      order: 'pre',
      async handler() {
        const { PRERENDERED_PATHS, renderPage } = (await import(pathToFileURL(serverEntry).href)) as ServerEntry;
        const template = await readFile(join(outDir, 'index.html'), 'utf8');
        await mkdir(join(outDir, PAGES_DIR), { recursive: true });
        for (const path of PRERENDERED_PATHS) {
          const page = pageHtml(template, await renderPage(path));
          await writeFile(join(outDir, PAGES_DIR, pageFileName(path)), page);
        }
      },
    },
  };
}
