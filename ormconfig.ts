import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { databaseConfigFrom } from 'src/config/database.config';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';

const config = databaseConfigFrom(process.env);

/**
 * The DataSource of the TypeORM CLI (`npm run migration:run`), built from the same options as the
 * app, except that a migration's statements may take longer than DB_QUERY_TIMEOUT_MS (0: no limit).
 */
export default new DataSource(
  buildTypeOrmOptions(config.driver === 'mysql' ? { ...config, queryTimeoutMs: 0 } : config),
);
