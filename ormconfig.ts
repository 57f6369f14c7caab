import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { databaseConfigFrom } from 'src/config/database.env';
import { withServerFlavour } from 'src/database/server-flavour';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';

const config = databaseConfigFrom(process.env);

/**
 * The DataSource of the TypeORM CLI (`npm run migration:run`, `migration:revert`,
 * `migration:generate`), built from the same options as the app, except that a migration's
 * statements may take longer than DB_QUERY_TIMEOUT_MS (0: no limit); on MariaDB with TypeORM's
 * `mariadb` type, so that `migration:generate` reads the schema right (see server-flavour.ts).
 */
export default withServerFlavour(
  buildTypeOrmOptions(config.driver === 'mysql' ? { ...config, queryTimeoutMs: 0 } : config),
).then((options) => new DataSource(options));
