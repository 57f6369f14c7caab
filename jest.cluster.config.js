// Jest for the cluster suites (npm run test:cluster): a three-node MariaDB Galera cluster started by
// the global setup (test/cluster/support), one instance of the service per node. Not part of
// `npm test`; CI runs it as a step of its own (docs/scaling-out.md).
/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 120000,
  rootDir: '.',
  testMatch: ['<rootDir>/test/cluster/**/*.cluster-spec.ts'],
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': 'ts-jest',
  },
  moduleNameMapper: {
    '^src/(.*)$': '<rootDir>/src/$1',
    '^test/(.*)$': '<rootDir>/test/$1',
    '^bench/(.*)$': '<rootDir>/bench/$1',
  },
  globalSetup: '<rootDir>/test/cluster/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/cluster/support/global-teardown.ts',
};
