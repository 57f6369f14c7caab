import type { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { DatabaseConfig } from 'src/config/database.config';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';

/**
 * The zero-setup path: the embedded SQLite file belongs to this one process, so it applies pending
 * migrations itself before serving. With MySQL, migrations are a deploy step (`npm run migration:run`).
 */
export async function migrateEmbeddedDatabase(config: DatabaseConfig, logger: Logger): Promise<void> {
  const dataSource = new DataSource(buildTypeOrmOptions(config));
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    if (applied.length > 0) {
      logger.log(`applied ${applied.length} migration(s) to the embedded database`);
    }
  } finally {
    await dataSource.destroy();
  }
}
