import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';

/** Zod's JSON Schema conversion: every schema class imports it, the browser never calls it. */
const JSON_SCHEMA_MODULES = /[\\/]zod[\\/]v4[\\/]core[\\/](json-schema-processors|to-json-schema)\.js$/;

/** The names a module exports (`export const|function|class x`, `export { a as b }`). */
function exportedNames(source: string): string[] {
  const declared = [...source.matchAll(/^export (?:const|let|function|class) (\w+)/gm)].flatMap(([, name]) =>
    name ? [name] : [],
  );
  const listed = [...source.matchAll(/^export \{([^}]*)\}/gm)].flatMap(([, list = '']) =>
    list.split(',').flatMap((part) => {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop();
      return name ? [name] : [];
    }),
  );
  return [...new Set([...declared, ...listed])];
}

/**
 * The browser build leaves out Zod's JSON Schema generation (about 5 KB of gzip in every first
 * load): each export of those modules becomes a function that says it is not there. Schemas still
 * parse and validate as before; only `toJSONSchema()`, `~standard.jsonSchema` and the check-derived
 * getters (`minLength`, `isInt`, ...), which the SPA does not use, throw when called. The server,
 * the prerender, the tests and the development server keep the real modules.
 */
export function zodWithoutJsonSchemaPlugin(): Plugin {
  return {
    name: 'likeness:zod-without-json-schema',
    apply: 'build',
    enforce: 'pre',
    async load(id, options) {
      if (options?.ssr || !JSON_SCHEMA_MODULES.test(id)) return null;
      const names = exportedNames(await readFile(id, 'utf8'));
      if (names.length === 0)
        throw new Error(`No exports found in ${id}: update build-tools/zod-without-json-schema.ts`);
      return [
        'function unavailable() {',
        "  throw new Error('JSON Schema is left out of the browser build (build-tools/zod-without-json-schema.ts)');",
        '}',
        // `create...Method(schema)` runs when `~standard` is read: it hands back the unavailable method.
        ...names.map((name) =>
          name.startsWith('create')
            ? `export const ${name} = () => unavailable;`
            : `export const ${name} = unavailable;`,
        ),
      ].join('\n');
    },
  };
}
