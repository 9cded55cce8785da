// The SPA's lint rules, run through the repository's own eslint.config.mjs: features stay apart
// (relative and `@/` imports alike), and the hooks and accessibility rules reach its components.
import { ESLint } from 'eslint';

const src = 'frontend/src';
/** A file that does not exist, in a folder that does: imports resolve from where it would be. */
const createComponent = `${src}/features/create/components/lint-probe.tsx`;

async function lint(code: string, filePath: string, ruleIds: readonly string[]): Promise<ESLint.LintResult> {
  // Only the rules under test run: the others need Nx's project graph and take longer.
  const eslint = new ESLint({ cwd: process.cwd(), ruleFilter: ({ ruleId }) => ruleIds.includes(ruleId) });
  const [result] = await eslint.lintText(code, { filePath });
  return result!;
}

const errorsOf = (result: ESLint.LintResult) => result.messages.map(({ ruleId, message }) => ({ ruleId, message }));

describe('frontend lint', () => {
  describe('import-x/no-restricted-paths', () => {
    const boundaries = (code: string, filePath = createComponent) =>
      lint(code, filePath, ['import-x/no-restricted-paths']).then(errorsOf);

    it('should report when a feature imports another feature by a relative path', async () => {
      const errors = await boundaries(`import { GalleryPage } from '../../gallery/components/gallery-page';\n`);

      expect(errors).toEqual([
        {
          ruleId: 'import-x/no-restricted-paths',
          message: expect.stringContaining('A feature does not import another feature'),
        },
      ]);
    });

    it('should report when a feature imports another feature through the @/ alias', async () => {
      const errors = await boundaries(`import { ModelsPage } from '@/features/models/components/models-page';\n`);

      expect(errors).toEqual([
        {
          ruleId: 'import-x/no-restricted-paths',
          message: expect.stringContaining('"@/features/models/components/models-page"'),
        },
      ]);
    });

    it('should allow a feature its own files, the shared folders and the contracts', async () => {
      const errors = await boundaries(
        [
          `import { findMention } from '../utils/mention';`,
          `import { useGenerationJob } from '@/features/create/hooks/use-generation-job';`,
          `import { Button } from '@/components/ui/button';`,
          `import { cn } from '../../../lib/cn';`,
          `import { PROMPT_MAX_LENGTH } from '@likeness/contracts';`,
          '',
        ].join('\n'),
      );

      expect(errors).toEqual([]);
    });

    it('should report when shared code imports a feature', async () => {
      const errors = await boundaries(
        `import { UserMenu } from '@/features/auth/components/user-menu';\n`,
        `${src}/components/lint-probe.tsx`,
      );

      expect(errors).toEqual([
        { ruleId: 'import-x/no-restricted-paths', message: expect.stringContaining('Shared code does not import') },
      ]);
    });
  });

  it('should apply the React hooks and accessibility rules to the SPA', async () => {
    const result = await lint(
      [
        `import { useState } from 'react';`,
        `export function Probe({ on }: { on: boolean }) {`,
        `  if (on) useState(0);`,
        `  return <img src="/x.png" />;`,
        `}`,
        '',
      ].join('\n'),
      createComponent,
      ['react-hooks/rules-of-hooks', 'jsx-a11y-x/alt-text'],
    );

    expect(result.messages.map(({ ruleId }) => ruleId).sort()).toEqual([
      'jsx-a11y-x/alt-text',
      'react-hooks/rules-of-hooks',
    ]);
  });
});
