import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { AppModule } from 'src/app.module';
import { configureApp } from 'src/app.setup';
import { databaseConfigFrom } from 'src/config/database.config';
import { type EnvironmentVariables, validateEnv } from 'src/config/env.validation';
import { migrateEmbeddedDatabase } from 'src/database/embedded';

async function serve(env: EnvironmentVariables): Promise<void> {
  const logger = new Logger('bootstrap');
  const httpsOptions =
    env.TLS_CERT_FILE && env.TLS_KEY_FILE
      ? { cert: readFileSync(env.TLS_CERT_FILE), key: readFileSync(env.TLS_KEY_FILE) }
      : undefined;
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    httpsOptions,
    bufferLogs: true,
  });
  configureApp(app);
  await app.listen(env.PORT, env.HOST);
  const where = env.DATABASE_URL ? 'MySQL' : `the embedded database ${env.SQLITE_PATH}`;
  logger.log(`listening on ${httpsOptions ? 'https' : 'http'}://${env.HOST}:${env.PORT}/api/ (${where})`);
}

/** With WEB_CONCURRENCY > 1 the primary only forks workers (each a whole server) and keeps them up. */
function superviseWorkers(count: number): void {
  const logger = new Logger('cluster');
  let stopping = false;
  for (let i = 0; i < count; i++) {
    cluster.fork();
  }
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        process.exit(0);
      }
      return;
    }
    logger.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) {
        worker?.process.kill(signal);
      }
    });
  }
}

async function bootstrap(): Promise<void> {
  const env = validateEnv(process.env);
  if (cluster.isPrimary) {
    const database = databaseConfigFrom(process.env);
    if (database.driver === 'sqlite') {
      await migrateEmbeddedDatabase(database, new Logger('bootstrap'));
    }
    if (env.WEB_CONCURRENCY > 1) {
      superviseWorkers(env.WEB_CONCURRENCY);
      return;
    }
  }
  await serve(env);
}

bootstrap().catch((error: unknown) => {
  new Logger('bootstrap').fatal(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
