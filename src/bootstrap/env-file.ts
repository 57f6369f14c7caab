import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Reads `.env` from the working directory, if there is one (Node's own parser: `KEY=value` lines,
 * quotes, `#` comments). A variable the real environment already has keeps its value: the file only
 * fills in what is not set. Returns whether there was a file.
 */
export function loadEnvFile(file = resolve('.env'), env: NodeJS.ProcessEnv = process.env): boolean {
  if (!existsSync(file)) {
    return false;
  }
  for (const [key, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (env[key] === undefined) {
      env[key] = value;
    }
  }
  return true;
}
