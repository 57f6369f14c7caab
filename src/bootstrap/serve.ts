import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppModule } from 'src/app.module';
import { configureApp } from 'src/app.setup';
import { GracefulShutdown } from 'src/bootstrap/graceful-shutdown';
import { fail, startMetricsPort } from 'src/bootstrap/start-up';
import { describeStartupFailure } from 'src/bootstrap/startup-failure';
import { AppLogger } from 'src/common/logging/nest-logger';
import { scrapeMetrics } from 'src/common/metrics/metrics-endpoint';
import { stopTracing } from 'src/common/tracing/tracing';
import { type DatabaseConfig, describeDatabase } from 'src/config/database.env';
import type { EnvironmentVariables } from 'src/config/env.validation';
import { observabilityEnv } from 'src/config/observability.env';
import { schemaVersionOf } from 'src/database/schema-version';

/*
 * A whole server (the application, its database, its port): what a worker runs, or the one process
 * with WEB_CONCURRENCY=1. src/main.ts loads this file only there, so that a primary that only forks
 * and watches workers does not load the application (its memory stays that of a small process).
 */

/** How long a shutdown waits for the requests in flight before closing their connections. */
const SHUTDOWN_DEADLINE_MS = 25_000;

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A whole server: the application on the database, listening, and stopping gracefully on a signal. */
export async function serve(env: EnvironmentVariables, database: DatabaseConfig, log: Logger): Promise<void> {
  const httpsOptions =
    env.TLS_CERT_FILE && env.TLS_KEY_FILE
      ? { cert: readFileSync(env.TLS_CERT_FILE), key: readFileSync(env.TLS_KEY_FILE) }
      : undefined;
  let app: NestExpressApplication;
  let schema: string;
  try {
    app = await NestFactory.create<NestExpressApplication>(AppModule, {
      bodyParser: false,
      httpsOptions,
      logger: new AppLogger(log),
      abortOnError: false,
    });
    const version = await schemaVersionOf(app.get(DataSource));
    if (version.current === null) {
      fail(log, `${describeDatabase(database)} has no schema yet: run npm run migration:run first`);
    }
    if (version.pending.length > 0) {
      fail(
        log,
        `${describeDatabase(database)} is at schema ${version.current}, and this version needs ` +
          `${version.pending.length} more migration(s) (${version.pending.join(', ')}): run npm run migration:run first`,
      );
    }
    schema = version.current;
    configureApp(app);
    await app.init();
  } catch (error) {
    fail(log, describeStartupFailure(error, { database }));
  }

  const server: Server = app.getHttpServer();
  const shutdown = new GracefulShutdown(server);
  const where = `${env.HOST}:${env.PORT}`;
  try {
    await listen(server, env.PORT, env.HOST);
  } catch (error) {
    fail(log, describeStartupFailure(error, { listen: where }));
  }
  const observability = observabilityEnv();
  if (observability.METRICS === 'on' && observability.METRICS_PORT !== undefined && !cluster.isWorker) {
    await startMetricsPort(observability.METRICS_PORT, observability.METRICS_HOST, scrapeMetrics, log);
  }
  const worker = cluster.isWorker ? `worker ${cluster.worker!.id} of ${env.WEB_CONCURRENCY}` : '1 worker';
  log.info(
    { address: where, database: describeDatabase(database), schema, workers: env.WEB_CONCURRENCY },
    `listening on ${httpsOptions ? 'https' : 'http'}://${where}/api/ (${describeDatabase(database)}, schema ${schema}; ${worker})`,
  );

  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      // Signals come twice under npm (Ctrl-C reaches npm and node, and npm forwards it): the
      // shutdown runs once, bounded by its deadline.
      if (stopping) {
        return;
      }
      stopping = true;
      const started = Date.now();
      void (async () => {
        const { finished, forced } = await shutdown.drain(SHUTDOWN_DEADLINE_MS);
        await app.close();
        await stopTracing().catch(() => undefined);
        log.info(
          { signal, finished, forced, ms: Date.now() - started },
          `stopped on ${signal}: ${finished} request(s) in flight finished` +
            `${forced > 0 ? `, ${forced} cut off after ${SHUTDOWN_DEADLINE_MS / 1000} s` : ''}; database closed`,
        );
        process.exit(0);
      })().catch((error: unknown) => fail(log, `stopping failed: ${describeStartupFailure(error, {})}`));
    });
  }
}
