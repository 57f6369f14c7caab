import { loadEnvFile } from './env-file';

/**
 * Imported first by the entry points (main.ts, cli.ts), before any module whose import reads the
 * environment: ConfigModule.forRoot validates process.env, and writes the defaults into it, as
 * soon as app.module.ts is imported.
 */
loadEnvFile();
