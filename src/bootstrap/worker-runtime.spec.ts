import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MALLOC_TUNABLES, SERVING_NODE_FLAGS, workerEnvAdditions, workerExecArgv } from './worker-runtime';

const ROOT = join(__dirname, '..', '..');

describe("a serving process's runtime settings", () => {
  it('are the flags `npm run start:prod` starts the server with', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const serverCommand = pkg.scripts['start:prod'].split('&&').pop()!.trim().split(/\s+/);
    expect(serverCommand).toEqual(['node', ...SERVING_NODE_FLAGS, 'dist/src/main']);
  });

  it("give a worker the primary's options, then the serving flags it lacks", () => {
    expect(workerExecArgv([])).toEqual(SERVING_NODE_FLAGS);
    expect(workerExecArgv(['--enable-source-maps'])).toEqual(['--enable-source-maps', ...SERVING_NODE_FLAGS]);
  });

  it("keep the operator's value of a flag, however it is spelt", () => {
    expect(workerExecArgv(['--max-semi-space-size=64', '--heap_growing_percent=50'])).toEqual([
      '--max-semi-space-size=64',
      '--heap_growing_percent=50',
      '--experimental-async-context-frame',
    ]);
    expect(workerExecArgv(SERVING_NODE_FLAGS)).toEqual(SERVING_NODE_FLAGS);
  });

  it("add the malloc setting to a worker's environment unless GLIBC_TUNABLES is set", () => {
    expect(workerEnvAdditions({ PATH: '/bin' })).toEqual({ GLIBC_TUNABLES: MALLOC_TUNABLES });
    expect(workerEnvAdditions({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' })).toEqual({});
    expect(workerEnvAdditions({ GLIBC_TUNABLES: '' })).toEqual({});
  });
});
