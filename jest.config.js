// Jest: unit tests next to the code, end-to-end suites under test/e2e (see test/e2e/support).
// Suites named *.mysql.e2e-spec.ts exercise what only exists with MySQL (e.g. a database that goes
// away); they run when TEST_DATABASE_URL names a MySQL server and are left out of SQLite runs.
const onMysql = Boolean(process.env.TEST_DATABASE_URL);

/** @type {import('jest').Config} */
module.exports = {
  // A global option: Jest ignores it inside a project. Suites start whole applications in their hooks,
  // which takes longer than Jest's 5 s default when the machine is loaded.
  testTimeout: 30000,
  projects: [
    {
      displayName: 'unit',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      testEnvironment: 'node',
      transform: {
        '^.+\\.ts$': 'ts-jest',
      },
      moduleNameMapper: {
        '^src/(.*)$': '<rootDir>/src/$1',
        '^test/(.*)$': '<rootDir>/test/$1',
      },
    },
    {
      ...{
        displayName: 'e2e',
        rootDir: '.',
        testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
        testEnvironment: 'node',
        transform: {
          '^.+\\.ts$': 'ts-jest',
        },
        moduleNameMapper: {
          '^src/(.*)$': '<rootDir>/src/$1',
          '^test/(.*)$': '<rootDir>/test/$1',
        },
        globalSetup: '<rootDir>/test/e2e/support/global-setup.ts',
        globalTeardown: '<rootDir>/test/e2e/support/global-teardown.ts',
      },
      testPathIgnorePatterns: onMysql ? ['/node_modules/'] : ['/node_modules/', '\\.mysql\\.e2e-spec\\.ts$'],
    },
  ],
};
