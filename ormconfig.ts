import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { databaseConfigFrom } from 'src/config/database.config';
import { withServerFlavour } from 'src/database/server-flavour';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';

/**
 * The DataSource of the TypeORM CLI (`npm run migration:run`, `migration:revert`,
 * `migration:generate`), built from the same options as the app; on MariaDB with TypeORM's `mariadb`
 * type, so that `migration:generate` reads the schema right (see server-flavour.ts).
 */
export default withServerFlavour(buildTypeOrmOptions(databaseConfigFrom(process.env))).then(
  (options) => new DataSource(options),
);
