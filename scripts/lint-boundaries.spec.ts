import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const importsTesting = "import { freePort } from '@likeness/testing';\n\nexport const port = await freePort();\n";
const importsDevstack = "import { freePort } from '@likeness/devstack';\n\nexport const port = await freePort();\n";
const loadsTesting =
  "const { freePort } = await import('@likeness/testing');\n\nexport const port = await freePort();\n";
const loadsDevstack =
  "const { freePort } = await import('@likeness/devstack');\n\nexport const port = await freePort();\n";

// The rules that keep libs/testing and libs/devstack out of what ships, through the repository's
// own ESLint configuration, on code as if it sat at the given path.
describe('module boundaries of @likeness/testing and @likeness/devstack', () => {
  const eslint = new ESLint({ cwd: ROOT });

  async function errorsOf(code: string, path: string): Promise<Array<{ rule: string | null; message: string }>> {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
    return (result?.messages ?? [])
      .filter((message) => message.severity === 2)
      .map((message) => ({ rule: message.ruleId, message: message.message }));
  }

  it('should be an error when a service imports @likeness/testing outside its tests', async () => {
    const errors = await errorsOf(importsTesting, 'services/billing/src/main.ts');
    expect(errors).toContainEqual({
      rule: 'no-restricted-imports',
      message: expect.stringMatching(/test infrastructure/),
    });
    // Nx's tags say the same, now that the lint computes the project graph itself.
    expect(errors.map((error) => error.rule)).toContain('@nx/enforce-module-boundaries');
  });

  it('should be an error when the gateway imports @likeness/devstack', async () => {
    const errors = await errorsOf(importsDevstack, 'gateway/src/main.ts');
    expect(errors).toContainEqual({ rule: 'no-restricted-imports', message: expect.stringMatching(/local runtime/) });
    expect(errors.map((error) => error.rule)).toContain('@nx/enforce-module-boundaries');
  });

  it('should be an error when the SPA imports @likeness/testing (Nx: platform:browser)', async () => {
    const errors = await errorsOf(importsTesting, 'frontend/src/main.tsx');
    expect(errors.map((error) => error.rule)).toContain('@nx/enforce-module-boundaries');
  });

  it('should be an error when a script outside the tests loads @likeness/testing with import()', async () => {
    expect(await errorsOf(loadsTesting, 'scripts/migration-sql.mjs')).toContainEqual({
      rule: 'no-restricted-syntax',
      message: expect.stringMatching(/test infrastructure/),
    });
    expect(await errorsOf(loadsTesting, 'scripts/start.mjs')).toContainEqual({
      rule: 'no-restricted-syntax',
      message: expect.stringMatching(/test infrastructure/),
    });
  });

  it('should be an error when a library imports libs/testing by a relative path', async () => {
    const code = "export { freePort } from '../../testing/src/index.js';\n";
    expect(await errorsOf(code, 'libs/nest-kit/src/index.ts')).toContainEqual({
      rule: 'no-restricted-imports',
      message: expect.stringMatching(/test infrastructure/),
    });
  });

  it('should allow @likeness/testing in tests, scripts/test.mjs and the benchmarks', async () => {
    expect(await errorsOf(importsTesting, 'services/billing/test/ledger.integration-spec.ts')).toEqual([]);
    expect(await errorsOf(importsTesting, 'services/billing/src/ledger/ledger.service.spec.ts')).toEqual([]);
    expect(await errorsOf(loadsTesting, 'scripts/test.mjs')).toEqual([]);
    expect(await errorsOf(loadsTesting, 'scripts/bench/ledger.mjs')).toEqual([]);
  });

  it('should allow @likeness/devstack in scripts/start.mjs, libs/testing and the benchmarks', async () => {
    expect(await errorsOf(loadsDevstack, 'scripts/start.mjs')).toEqual([]);
    expect(await errorsOf(importsDevstack, 'libs/testing/src/servers/s3-server.ts')).toEqual([]);
    expect(await errorsOf(loadsDevstack, 'scripts/bench/upload.mjs')).toEqual([]);
  });
});
