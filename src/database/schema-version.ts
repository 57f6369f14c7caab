import type { DataSource } from 'typeorm';
import { MIGRATIONS_TABLE } from 'src/database/typeorm-options';

/** Which migrations the database has: its schema version is the last one applied. */
export interface SchemaVersion {
  /** The last applied migration (e.g. `ChangeLog1763820000000`), null for an empty database. */
  current: string | null;
  applied: number;
  /** Migrations this version of the service has and the database lacks, oldest first. */
  pending: string[];
}

export async function schemaVersionOf(dataSource: DataSource): Promise<SchemaVersion> {
  const runner = dataSource.createQueryRunner();
  let names: string[] = [];
  try {
    if (await runner.hasTable(MIGRATIONS_TABLE)) {
      const escape = (name: string) => dataSource.driver.escape(name);
      const rows = (await runner.query(
        `SELECT ${escape('name')} AS name FROM ${escape(MIGRATIONS_TABLE)} ORDER BY ${escape('timestamp')} DESC`,
      )) as { name: string }[];
      names = rows.map((row) => row.name);
    }
  } finally {
    await runner.release();
  }
  const applied = new Set(names);
  const known = dataSource.migrations
    .map((migration) => migration.name ?? migration.constructor.name)
    .sort((a, b) => timestampOf(a) - timestampOf(b));
  return {
    current: names[0] ?? null,
    applied: names.length,
    pending: known.filter((name) => !applied.has(name)),
  };
}

function timestampOf(name: string): number {
  return Number(/(\d{13})$/.exec(name)?.[1] ?? 0);
}
