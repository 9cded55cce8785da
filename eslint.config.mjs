import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createProjectGraphAsync } from '@nx/devkit';
import nx from '@nx/eslint-plugin';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import reactHooks from 'eslint-plugin-react-hooks';

// @nx/enforce-module-boundaries reads the project graph Nx cached in .nx/ and, when there is none,
// skips itself with a warning and lets the run pass; a stale one misses new projects and tags.
// Computing it here first (0.7 s when cached, 2-3 s from nothing) makes every ESLint run enforce
// today's boundaries: `npm run lint`, a fresh clone, an editor, the lint test.
await createProjectGraphAsync({ exitOnError: false });

const TEST_FILES = [
  '**/*.spec.ts',
  '**/*.integration-spec.ts',
  '**/*.system-spec.ts',
  '**/*.browser-spec.ts',
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/test/**',
];

/** The libraries that ship inside the apps (not libs/testing, not libs/devstack). */
const SHIPPED_LIBS = ['type:contracts', 'type:kit'];

function moduleBoundaries({ tests }) {
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      // Each app's main.ts starts tracing from the kit's `tracing` entry, then imports the kit
      // itself: its instrumentations must be in place before http, fastify and pg load.
      checkDynamicDependenciesExceptions: ['@likeness/nest-kit'],
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
        { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:kit', 'type:devstack'] },
        // The local runtime starts the built apps as processes; it imports none of them.
        { sourceTag: 'type:devstack', onlyDependOnLibsWithTags: [] },
        // No service imports another service; each talks to the others over NATS. What ships
        // imports no test infrastructure and no local runtime; its tests may.
        { sourceTag: 'type:service', onlyDependOnLibsWithTags: tests ? ['scope:shared'] : SHIPPED_LIBS },
        { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: tests ? ['scope:shared'] : SHIPPED_LIBS },
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
    ignores: [
      '**/dist',
      '**/dist-ssr',
      '**/dist-public',
      '**/node_modules',
      '.data',
      '.nx',
      'coverage',
      'frontend/public/**',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries({ tests: false }) },
  },
  {
    files: TEST_FILES,
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries({ tests: true }) },
  },
  ...boundariesOfTestingAndDevstack(),
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
  // ---- Frontend (the SPA): React hooks, accessibility, features kept apart. See frontendRules below. ----
  ...frontendRules(),
];

// The SPA's own rules, kept in one place apart from the backend's.
function frontendRules() {
  const src = fileURLToPath(new URL('frontend/src/', import.meta.url));
  const features = readdirSync(`${src}features`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  // The React team's current set. The Rules of React (pure renders, refs, no setState during
  // render or straight from an effect) hold with or without the React Compiler; its own checks
  // (preserve-manual-memoization, incompatible-library, config, gating) find nothing today and
  // keep the code ready for it.
  const hooks = reactHooks.configs.flat['recommended-latest'];
  return [
    {
      files: ['frontend/**/*.ts', 'frontend/**/*.tsx'],
      plugins: hooks.plugins,
      rules: hooks.rules,
    },
    {
      // eslint-plugin-jsx-a11y 6.10 declares ESLint <= 9; this fork has the same rules and supports 10.
      files: ['frontend/**/*.tsx'],
      ...jsxA11y.configs.recommended,
      // The design-system primitives render exactly these elements: check their call sites too.
      settings: {
        'jsx-a11y-x': { components: { CardTitle: 'h3', Input: 'input', Label: 'label', NativeSelect: 'select' } },
      },
    },
    {
      files: ['frontend/src/**/*.ts', 'frontend/src/**/*.tsx'],
      plugins: { 'import-x': importX },
      settings: {
        // Resolves relative imports and the `@/` alias the way tsc and Vite do.
        'import-x/resolver-next': [
          createNodeResolver({
            extensions: ['.ts', '.tsx', '.js', '.json'],
            tsconfig: { configFile: fileURLToPath(new URL('frontend/tsconfig.json', import.meta.url)) },
          }),
        ],
      },
      rules: {
        'import-x/no-restricted-paths': [
          'error',
          {
            zones: [
              // A feature never imports another: what two features share lives in the shared folders.
              ...features.map((feature) => ({
                target: `${src}features/${feature}`,
                from: `${src}features`,
                except: [`./${feature}`],
                message:
                  'A feature does not import another feature: move what they share to src/components, src/hooks or src/lib.',
              })),
              // The shared folders are below the features: they never reach back into one.
              {
                target: ['components', 'hooks', 'lib', 'config'].map((folder) => `${src}${folder}`),
                from: [`${src}features`, `${src}app`],
                message: 'Shared code does not import features or the app.',
              },
            ],
          },
        ],
      },
    },
  ];
}

// ---- @likeness/testing and @likeness/devstack stay out of what ships --------------------------
// libs/testing only in tests and in scripts of tests: scripts/test.mjs and the benchmarks (test
// harnesses of their own: throwaway databases, namespaces and RPC clients; never shipped).
// libs/devstack (the local runtime) also in `npm start`, the soak (`npm run soak`) and libs/testing. Nx's tags say the same
// for projects; these rules also cover scripts/, outside every project, and need no project graph.
// The SPA is left to its own rules (and to Nx's platform:browser tag, which already forbids both).
function boundariesOfTestingAndDevstack() {
  const testing = {
    regex: '^@likeness/testing(/|$)|(^|/)libs/testing(/|$)|^(\\.\\./)+testing(/|$)',
    message: 'libs/testing is test infrastructure: only tests and scripts/test.mjs or scripts/bench may import it.',
  };
  const devstack = {
    regex: '^@likeness/devstack(/|$)|(^|/)libs/devstack(/|$)|^(\\.\\./)+devstack(/|$)',
    message:
      'libs/devstack is the local runtime: only scripts/start.mjs, scripts/soak, libs/testing, tests and scripts/bench may import it.',
  };
  const forbid = (...patterns) => ({
    'no-restricted-imports': ['error', { patterns }],
    // no-restricted-imports sees only static imports; this catches `await import('...')`.
    'no-restricted-syntax': [
      'error',
      ...patterns.map(({ regex, message }) => ({
        selector: `ImportExpression > Literal[value=/${regex.replaceAll('/', '\\/')}/]`,
        message,
      })),
    ],
  });
  const testScripts = ['scripts/test.mjs', 'scripts/bench/**'];
  const devstackUsers = ['scripts/start.mjs', 'scripts/soak/**/*.mjs', 'libs/testing/src/**'];
  return [
    {
      files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
      ignores: [...TEST_FILES, ...testScripts, ...devstackUsers, 'frontend/**'],
      rules: forbid(testing, devstack),
    },
    { files: devstackUsers, rules: forbid(testing) },
  ];
}
