import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { zodWithoutJsonSchemaPlugin } from './zod-without-json-schema';

const zodCore = join(createRequire(import.meta.url).resolve('zod'), '../v4/core');
const modules = ['json-schema-processors.js', 'to-json-schema.js'].map((file) => join(zodCore, file));

async function load(id: string, ssr = false): Promise<string | null> {
  const { load: hook } = zodWithoutJsonSchemaPlugin();
  const handler = typeof hook === 'function' ? hook : hook!.handler;
  return (await handler.call({} as never, id, { ssr })) as string | null;
}

describe('zodWithoutJsonSchemaPlugin', () => {
  it.each(modules)('should stand in for every export of %s, each saying JSON Schema is not there', async (id) => {
    const real = Object.keys((await import(/* @vite-ignore */ pathToFileURL(id).href)) as object).sort();
    const stub = await load(id);

    const stubbed = [...stub!.matchAll(/^export const (\w+) =/gm)].map((match) => match[1]).sort();
    expect(stubbed).toEqual(real);
    expect(stub).toContain("throw new Error('JSON Schema is left out of the browser build");
  });

  it('should leave other modules and the server-side build alone', async () => {
    expect(await load(join(zodCore, 'schemas.js'))).toBeNull();
    expect(await load(modules[0]!, true)).toBeNull();
  });
});
