import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';

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

/** Runs one loaded migration's `up` (or `down`) again on the app's database, as a test of it. */
export async function runMigration(
  dataSource: DataSource,
  name: string,
  direction: 'up' | 'down' = 'up',
): Promise<void> {
  const migration = dataSource.migrations.find((m) => (m.name ?? m.constructor.name) === name);
  if (migration === undefined) {
    throw new Error(`the migration ${name} is not loaded`);
  }
  const runner = dataSource.createQueryRunner();
  try {
    await migration[direction](runner);
  } finally {
    await runner.release();
  }
}
