import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The Node.js versions this service runs on: package.json's `engines.node`, a lower bound
 * (`>=22.13.0`). `npm ci` refuses another Node (`engine-strict=true` in .npmrc); the server and the
 * CLI refuse it at start, before anything else is loaded (docs/decisions.md#d118). Plain Node only:
 * this runs before the flags and the code an older Node does not understand.
 */
export function requiredNodeRange(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const { engines } = JSON.parse(readFileSync(file, 'utf8')) as { engines?: { node?: string } };
      if (typeof engines?.node !== 'string') {
        throw new Error(`${file} names no engines.node`);
      }
      return engines.node;
    }
    if (dirname(dir) === dir) {
      throw new Error('no package.json above ' + __dirname);
    }
  }
}

/** A version's numbers (`v22.13.0` or `22.13.0` → [22, 13, 0]); a missing part is 0. */
function numbersOf(version: string): number[] {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version.trim());
  if (!match) {
    throw new Error(`not a version: ${version}`);
  }
  return [match[1], match[2], match[3]].map((part) => Number(part ?? 0));
}

/**
 * The one line refusing Node `found` for `required` (a `>=X.Y.Z` lower bound), or undefined when
 * `found` is recent enough.
 */
export function nodeVersionProblem(found: string, required: string): string | undefined {
  const bound = /^\s*>=\s*(\S+)\s*$/.exec(required);
  if (!bound) {
    throw new Error(`engines.node must be a lower bound (>=X.Y.Z), not "${required}"`);
  }
  const want = numbersOf(bound[1]);
  const have = numbersOf(found);
  for (let i = 0; i < 3; i++) {
    if (have[i] !== want[i]) {
      return have[i] > want[i]
        ? undefined
        : `This service needs Node.js ${required.trim()}; this is Node.js ${found.replace(/^v?/, 'v')}.`;
    }
  }
  return undefined;
}

/** Refuses to go on under an unsupported Node: the one line on stderr, exit code 1. */
export function refuseUnsupportedNode(
  found: string = process.versions.node,
  exit: (code: number) => never = (code) => process.exit(code),
  write: (line: string) => void = (line) => process.stderr.write(line),
): void {
  const problem = nodeVersionProblem(found, requiredNodeRange());
  if (problem !== undefined) {
    write(`${problem}\n`);
    exit(1);
  }
}
