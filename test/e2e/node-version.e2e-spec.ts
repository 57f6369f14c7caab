import { join } from 'node:path';
import { Child, ROOT } from 'test/e2e/support/child-process';

/**
 * An unsupported Node stops the server and the CLI before anything else, with one line naming the
 * version needed (package.json's engines) and the one found, exit code 1. The child processes are
 * told they run on Node 20 (a module loaded first rewrites `process.versions.node`).
 */
describe('an unsupported Node', () => {
  const ON_NODE_20 = ['-r', join(ROOT, 'test/e2e/support/fixtures/node-20.js')];
  const LINE = 'This service needs Node.js >=22.13.0; this is Node.js v20.19.0.\n';

  it.each([
    ['the server', 'src/main.ts', []],
    ['the CLI', 'src/cli.ts', ['migration:show']],
  ])('stops %s with one line', async (_name, entry, args) => {
    const finished = await new Child(entry, args, {
      nodeArgs: ON_NODE_20,
      env: { PORT: '0', HOST: '127.0.0.1', WEB_CONCURRENCY: '1' },
    }).exited;
    expect({ code: finished.code, stderr: finished.stderr, stdout: finished.stdout }).toEqual({
      code: 1,
      stderr: LINE,
      stdout: '',
    });
  });
});
