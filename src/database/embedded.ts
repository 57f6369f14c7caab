import { DataSource } from 'typeorm';
import type { DatabaseConfig } from 'src/config/database.env';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';

/**
 * The zero-setup path: the embedded SQLite file belongs to this one process, so it applies pending
 * migrations itself before serving (how many it applied is returned). With MySQL, migrations are a
 * deploy step (`npm run migration:run`).
 */
export async function migrateEmbeddedDatabase(config: DatabaseConfig): Promise<number> {
  const dataSource = new DataSource(buildTypeOrmOptions(config));
  await dataSource.initialize();
  try {
    return (await dataSource.runMigrations({ transaction: 'each' })).length;
  } finally {
    await dataSource.destroy();
  }
}
