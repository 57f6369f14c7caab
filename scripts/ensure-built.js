#!/usr/bin/env node
// Builds the server (`nest build`) when dist/ has not been built yet, so that `npm run cli` and the
// migration scripts work straight after `npm ci`. An existing build is used as it is.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
if (!existsSync(join(root, 'dist', 'src', 'cli.js'))) {
  process.stderr.write('dist/ is not built yet: running npm run build first\n');
  const build = spawnSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  process.exit(build.status ?? 1);
}
