import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The names of the code's migrations, oldest first (each file exports one class, named
 * `<Name><timestamp>`), so that tests of the schema version follow new migrations by themselves.
 */
export function migrationNames(): string[] {
  const dir = join(__dirname, '..', '..', '..', 'src', 'database', 'migrations');
  return readdirSync(dir)
    .filter((file) => /^\d+-.+\.ts$/.test(file))
    .sort()
    .map((file) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exported = require(join(dir, file)) as Record<string, { name: string }>;
      return Object.values(exported)[0].name;
    });
}
