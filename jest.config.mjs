// One Jest setup for every Node project: ESM (Nest 12 ships only ESM) compiled by SWC, which
// keeps decorator metadata. Workspace libraries resolve to their sources, so tests never need
// a build of the libraries; system tests run the built apps (scripts/test.mjs builds first).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2023',
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

const shared = {
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@likeness/(contracts|nest-kit|storage|inference|mail|testing|devstack)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/', '<rootDir>/.data/'],
};

export default {
  rootDir: '.',
  // Integration and system tests start real servers; a test's own waits are bounded tighter.
  testTimeout: 120_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,services,gateway,deploy,scripts}/**/*.spec.ts'],
    },
    ...[
      ['integration', '<rootDir>/{libs,services,gateway,deploy,scripts}/**/*.integration-spec.ts'],
      ['system', '<rootDir>/{gateway/test/system,libs/devstack/test}/**/*.system-spec.ts'],
      ['browser', '<rootDir>/gateway/test/browser/**/*.browser-spec.ts'],
    ].map(([displayName, pattern]) => ({
      ...shared,
      displayName,
      testMatch: [pattern],
      // PostgreSQL and NATS for the run: see libs/testing. Runs from the build (npm test builds first).
      globalSetup: '<rootDir>/libs/testing/dist/jest/global-setup.js',
      globalTeardown: '<rootDir>/libs/testing/dist/jest/global-teardown.js',
    })),
  ],
};
