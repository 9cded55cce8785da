import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Manifest, Plugin } from 'vite';
import { pageFileName, pageHtml, withPublicEntry, type PublicEntryFiles } from '../src/prerender/page-html.ts';
import type { RenderedPage } from '../src/prerender/render-page.tsx';
import { PUBLIC_ENTRY } from './public-build.ts';

/** Where the prerendered pages go in the build; the gateway serves `pages/<name>.html` for `/<name>`. */
export const PAGES_DIR = 'pages';

interface ServerEntry {
  PRERENDERED_PATHS: readonly string[];
  renderPage: (path: string) => Promise<RenderedPage>;
}

/** The public entry's script, the chunks it imports (to preload) and its styles, from its build's manifest. */
export function publicEntryFiles(manifest: Manifest): PublicEntryFiles {
  const entry = manifest[PUBLIC_ENTRY];
  if (!entry) throw new Error(`The public build's manifest has no ${PUBLIC_ENTRY}`);
  const preloads = new Set<string>();
  const styles = new Set<string>(entry.css);
  const visit = (keys: readonly string[] = []) => {
    for (const key of keys) {
      const chunk = manifest[key];
      if (!chunk || preloads.has(chunk.file)) continue;
      preloads.add(chunk.file);
      for (const file of chunk.css ?? []) styles.add(file);
      visit(chunk.imports);
    }
  };
  visit(entry.imports);
  return { script: entry.file, preloads: [...preloads], styles: [...styles] };
}

/**
 * Writes the public pages as HTML after the client build, from the SSR build of
 * src/prerender/render-page.tsx (`serverEntry`) and the public pages' light bundle
 * (`publicBuild`), both built first: the built index.html loading that bundle, with each page's
 * markup and meta tags. The bundle's files join the app's assets. Runs before the service worker
 * and the compressed twins are made.
 */
export function prerenderPlugin({ serverEntry, publicBuild }: { serverEntry: string; publicBuild: string }): Plugin {
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
        const manifest = JSON.parse(await readFile(join(publicBuild, '.vite/manifest.json'), 'utf8')) as Manifest;
        await cp(join(publicBuild, 'assets'), join(outDir, 'assets'), { recursive: true });
        const template = withPublicEntry(
          await readFile(join(outDir, 'index.html'), 'utf8'),
          publicEntryFiles(manifest),
        );
        await mkdir(join(outDir, PAGES_DIR), { recursive: true });
        for (const path of PRERENDERED_PATHS) {
          const page = pageHtml(template, await renderPage(path));
          await writeFile(join(outDir, PAGES_DIR, pageFileName(path)), page);
        }
      },
    },
  };
}
