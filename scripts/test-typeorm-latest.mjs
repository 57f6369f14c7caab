#!/usr/bin/env node
// Runs the database adapter's tests (src/common/database, see its README.md) against another TypeORM
// release than the pinned one: by default the latest, or TYPEORM_VERSION. The release is installed
// into a temporary directory (package.json and node_modules are left as they are); the type check and
// the tests resolve `typeorm` and `typeorm/*` there, everything else from the project. With
// TEST_DATABASE_URL the tests also run on that MySQL server.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const wanted = process.env.TYPEORM_VERSION ?? 'latest';
const dir = mkdtempSync(join(tmpdir(), 'typeorm-release-'));
const typeorm = join(dir, 'node_modules', 'typeorm');
/** The adapter, the fast paths written on it, the unit of work, and their tests. */
const FILES = [
  'src/common/database/typeorm-adapter.ts',
  'src/common/database/plain-rows.ts',
  'src/common/database/insert-rows.ts',
  'src/common/database/request-transaction.ts',
  'src/common/database/unit-of-work.ts',
  'src/common/tracing/statements.ts',
];
const TESTS = [
  'src/common/database/typeorm-adapter.spec.ts',
  'src/common/database/insert-rows.spec.ts',
  'src/common/database/rows-for-ids.spec.ts',
  'src/common/database/request-transaction.spec.ts',
  'src/common/database/unit-of-work.spec.ts',
];

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
  }
}

try {
  writeFileSync(join(dir, 'package.json'), '{"private": true}\n');
  // Its peer dependencies (mysql2, better-sqlite3) are the project's: not installed again.
  run('npm', [
    'install',
    '--prefix',
    dir,
    '--no-audit',
    '--no-fund',
    '--legacy-peer-deps',
    '--ignore-scripts',
    `typeorm@${wanted}`,
  ]);
  const version = JSON.parse(readFileSync(join(typeorm, 'package.json'), 'utf8')).version;
  const pinned = JSON.parse(
    readFileSync(join(root, 'node_modules', 'typeorm', 'package.json'), 'utf8'),
  ).version;
  process.stdout.write(`The database adapter against TypeORM ${version} (pinned: ${pinned})\n`);

  // The adapter's files and tests type-checked against that release's declarations.
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      compilerOptions: {
        baseUrl: root,
        paths: { 'src/*': ['src/*'], typeorm: [typeorm], 'typeorm/*': [`${typeorm}/*`] },
        typeRoots: [join(root, 'node_modules', '@types')],
        noEmit: true,
      },
      include: [],
      files: [...FILES, ...TESTS].map((file) => join(root, file)),
    }),
  );
  run('npx', ['tsc', '-p', tsconfig]);

  // Its tests, with `typeorm` resolved to that release.
  const config = {
    rootDir: root,
    testMatch: TESTS.map((file) => `<rootDir>/${file}`),
    testEnvironment: 'node',
    testTimeout: 30000,
    transform: { '^.+\\.ts$': 'ts-jest' },
    moduleNameMapper: {
      '^typeorm$': typeorm,
      '^typeorm/(.*)$': `${typeorm}/$1`,
      '^src/(.*)$': '<rootDir>/src/$1',
    },
    // What the release requires but does not bring (its peers: the database drivers) comes from here.
    modulePaths: [join(root, 'node_modules')],
  };
  run('npx', ['jest', '--runInBand', '--config', JSON.stringify(config)], { TYPEORM_UNDER_TEST: version });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
