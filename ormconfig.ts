import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { databaseConfigFrom } from 'src/config/database.config';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';

/** The DataSource of the TypeORM CLI (`npm run migration:run`), built from the same options as the app. */
export default new DataSource(buildTypeOrmOptions(databaseConfigFrom(process.env)));
