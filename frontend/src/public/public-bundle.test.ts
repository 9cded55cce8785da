// The public pages' bundle, built as `npm run build` builds it: what its files are made of.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// As build-tools/public-build.ts names it (importing it here would run its node-only path code in jsdom).
const PUBLIC_ENTRY = 'src/public/main.tsx';
/** The frontend project, where vitest runs. */
const root = process.cwd();
let outDir = '';
let chunks: Rolldown.OutputChunk[] = [];

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'likeness-public-bundle-'));
  const output = await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode: 'public',
    logLevel: 'silent',
    build: { outDir, write: false, sourcemap: false },
  });
  const [result] = Array.isArray(output) ? output : [output];
  chunks = (result as Rolldown.RolldownOutput).output.filter((file) => file.type === 'chunk');
}, 120_000);

afterAll(() => rm(outDir, { recursive: true, force: true }));

/** The chunks a first visit to `/` runs: the entry and what it imports, not what loads on demand. */
function firstLoad(): Rolldown.OutputChunk[] {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(PUBLIC_ENTRY));
  if (!entry) throw new Error(`No chunk for ${PUBLIC_ENTRY}`);
  const seen = new Set([entry]);
  for (const chunk of seen) for (const name of chunk.imports) seen.add(byName.get(name)!);
  return [...seen];
}

describe("the public pages' bundle", () => {
  it.each([
    ['react-router', /[\\/]node_modules[\\/]react-router[\\/]/],
    ['zod', /[\\/]node_modules[\\/]zod[\\/]/],
    ['TanStack Query', /[\\/]node_modules[\\/]@tanstack[\\/]/],
    ["the contracts' schemas", /[\\/]libs[\\/]contracts[\\/]src[\\/](?!costs\.ts$)/],
  ])('should hold none of %s in any of its files', (_, module) => {
    const found = chunks.flatMap((chunk) => chunk.moduleIds.filter((id) => module.test(id)));
    expect(found).toEqual([]);
  });

  it('should run the landing page on Preact on a first visit, not react-dom, the menus, dialogs and toasts', () => {
    const modules = firstLoad().flatMap((chunk) => chunk.moduleIds);

    expect(modules.some((id) => id.includes('/node_modules/preact/compat/'))).toBe(true);
    expect(
      chunks.flatMap((chunk) => chunk.moduleIds).filter((id) => /[\\/]node_modules[\\/]react(-dom)?[\\/]/.test(id)),
    ).toEqual([]);
    expect(modules.some((id) => id.endsWith('features/landing/components/hero.tsx'))).toBe(true);
    const radix = modules.flatMap((id) => /[\\/]@radix-ui[\\/](react-[\w-]+)[\\/]/.exec(id)?.[1] ?? []);
    expect(radix.sort()).toEqual(['react-compose-refs', 'react-slot']);
  });
});
