import { registerAs } from '@nestjs/config';
import { type DatabaseConfig, databaseConfigFrom } from 'src/config/database.env';

/** The database settings (src/config/database.env.ts) as Nest's `database` configuration namespace. */
export const databaseConfig = registerAs('database', (): DatabaseConfig => databaseConfigFrom(process.env));
