import nx from '@nx/eslint-plugin';

const TEST_FILES = [
  '**/*.spec.ts',
  '**/*.integration-spec.ts',
  '**/*.system-spec.ts',
  '**/*.browser-spec.ts',
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/test/**',
];

function moduleBoundaries({ tests }) {
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      depConstraints: [
        // Contracts are framework-free: zod and nothing else.
        { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [], allowedExternalImports: ['zod'] },
        // The browser gets only browser-safe libraries.
        { sourceTag: 'platform:browser', onlyDependOnLibsWithTags: ['platform:browser'] },
        // A kit's own tests may use libs/testing's servers and fixtures. The storage port is the one
        // kit other kits build on (the local inference adapter reads selfies and writes previews).
        {
          sourceTag: 'type:kit',
          onlyDependOnLibsWithTags: tests
            ? ['type:contracts', 'type:testing', 'port:storage']
            : ['type:contracts', 'port:storage'],
        },
        { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:kit'] },
        // No service imports another service; each talks to the others over NATS.
        { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['scope:shared'] },
        { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: ['scope:shared'] },
        { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts'] },
      ],
    },
  ];
}

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: ['**/dist', '**/node_modules', '.data', '.nx', 'coverage', 'frontend/public/**'],
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries({ tests: false }) },
  },
  {
    files: TEST_FILES,
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries({ tests: true }) },
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
    files: TEST_FILES,
    rules: {
      '@typescript-eslint/no-empty-function': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
];
