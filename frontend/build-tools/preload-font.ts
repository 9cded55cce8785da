import type { Plugin } from 'vite';

/**
 * Adds `<link rel="preload">` for the app's font (the hashed file the build emitted) to
 * index.html: the text's font arrives with the stylesheet instead of after it, and the
 * fallback's swap to it (see index.css) happens before or right at the first paint.
 */
export function preloadFontPlugin({ fileName }: { fileName: RegExp }): Plugin {
  return {
    name: 'likeness:preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const font = Object.keys(bundle ?? {}).find((file) => fileName.test(file));
        if (!font) throw new Error(`The build emitted no font matching ${String(fileName)}`);
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}
