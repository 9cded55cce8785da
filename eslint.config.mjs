import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: ['**/dist', '**/node_modules', '.data', '.nx', 'coverage', 'frontend/public/**'],
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            // Contracts are framework-free: zod and nothing else.
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [], allowedExternalImports: ['zod'] },
            // The browser gets only browser-safe libraries.
            { sourceTag: 'platform:browser', onlyDependOnLibsWithTags: ['platform:browser'] },
            { sourceTag: 'type:kit', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:kit'] },
            // No service imports another service; each talks to the others over NATS.
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Function is the honest type of TypeORM's entity lists.
      '@typescript-eslint/no-unsafe-function-type': 'off',
    },
  },
  {
    files: [
      '**/*.spec.ts',
      '**/*.integration-spec.ts',
      '**/*.system-spec.ts',
      '**/*.browser-spec.ts',
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/test/**',
    ],
    rules: {
      '@typescript-eslint/no-empty-function': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
];
