import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { readFileSync } from 'node:fs';
import { AppModule } from 'src/app.module';
import { configureApp } from 'src/app.setup';
import { appConfig, type AppConfig } from 'src/config/app.config';
import { databaseConfigFrom } from 'src/config/database.config';
import { validateEnv } from 'src/config/env.validation';
import { migrateEmbeddedDatabase } from 'src/database/embedded';

async function bootstrap(): Promise<void> {
  const env = validateEnv(process.env);
  const logger = new Logger('bootstrap');
  const database = databaseConfigFrom(process.env);
  if (database.driver === 'sqlite') {
    await migrateEmbeddedDatabase(database, logger);
  }
  const httpsOptions =
    env.TLS_CERT_FILE && env.TLS_KEY_FILE
      ? { cert: readFileSync(env.TLS_CERT_FILE), key: readFileSync(env.TLS_KEY_FILE) }
      : undefined;
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    httpsOptions,
    logger: logLevels(env.LOG_LEVEL),
  });
  configureApp(app);
  const config = app.get<AppConfig>(appConfig.KEY);
  await app.listen(config.port, config.host);
  const where = database.driver === 'sqlite' ? `the embedded database ${database.path}` : 'MySQL';
  logger.log(`listening on ${httpsOptions ? 'https' : 'http'}://${config.host}:${config.port}/api/ (${where})`);
}

function logLevels(level: string): ('fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose')[] {
  const all = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
  return all.slice(0, all.indexOf(level as (typeof all)[number]) + 1);
}

bootstrap().catch((error: unknown) => {
  new Logger('bootstrap').fatal(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
