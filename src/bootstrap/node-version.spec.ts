import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeVersionProblem, refuseUnsupportedNode, requiredNodeRange } from './node-version';

const ROOT = join(__dirname, '..', '..');

describe('the supported Node', () => {
  it("is package.json's engines.node, enforced by npm (engine-strict)", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(requiredNodeRange()).toBe(pkg.engines.node);
    expect(pkg.engines.node).toBe('>=22.13.0');
    expect(readFileSync(join(ROOT, '.npmrc'), 'utf8').split('\n')).toContain('engine-strict=true');
  });

  it.each([
    ['20.19.0', false],
    ['v20.19.0', false],
    ['22.12.9', false],
    ['21.99.0', false],
    ['22.13.0', true],
    ['v22.13.1', true],
    ['22.23.5', true],
    ['24.0.0', true],
    ['100.0.0', true],
  ])('%s is supported: %s', (found, supported) => {
    const problem = nodeVersionProblem(found, '>=22.13.0');
    if (supported) {
      expect(problem).toBeUndefined();
    } else {
      expect(problem).toBe(
        `This service needs Node.js >=22.13.0; this is Node.js ${found.replace(/^v?/, 'v')}.`,
      );
    }
  });

  it('refuses a range it cannot read', () => {
    expect(() => nodeVersionProblem('22.13.0', '^22')).toThrow(/lower bound/);
  });

  it('refuses an older Node with one line on stderr and exit code 1', () => {
    const lines: string[] = [];
    const exit = jest.fn((code: number): never => {
      throw new Error(`exit ${code}`);
    });
    expect(() => refuseUnsupportedNode('20.19.0', exit, (line) => lines.push(line))).toThrow('exit 1');
    expect(lines).toEqual(['This service needs Node.js >=22.13.0; this is Node.js v20.19.0.\n']);
    refuseUnsupportedNode('22.13.0', exit, (line) => lines.push(line));
    expect(exit).toHaveBeenCalledTimes(1);
  });
});
