import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface PackageInfo {
  name: string;
  version: string;
}

let cached: PackageInfo | undefined;

/** This service's name and version, from its package.json (found from src/ and from dist/src/). */
export function packageInfo(): PackageInfo {
  if (cached) {
    return cached;
  }
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as PackageInfo;
      cached = { name, version };
      return cached;
    }
    if (dirname(dir) === dir) {
      return { name: 'cdn-control-plane', version: 'unknown' };
    }
  }
}
