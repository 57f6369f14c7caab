// First: a supported Node (one line and exit 1 otherwise), then the .env file, before anything
// reads the environment.
import 'src/bootstrap/supported-node';
import 'src/bootstrap/dotenv';
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
import { packageInfo } from 'src/bootstrap/package-info';
import { describeStartupFailure } from 'src/bootstrap/startup-failure';
import { AppLogger, processLogger } from 'src/common/logging/logger';
import { type DatabaseConfig, databaseConfigFrom, describeDatabase } from 'src/config/database.config';
import { type EnvironmentVariables, validateServerEnv } from 'src/config/env.validation';
import { migrateEmbeddedDatabase } from 'src/database/embedded';
import {
  aggregateClusterMetrics,
  scrapeMetrics,
  serveMetricsPort,
} from 'src/common/metrics/metrics-endpoint';
import { stopTracing } from 'src/common/tracing/tracing';
import { observabilityEnv } from 'src/config/observability.env';
import { schemaVersionOf } from 'src/database/schema-version';

/** How long a shutdown waits for the requests in flight before closing their connections. */
const SHUTDOWN_DEADLINE_MS = 25_000;

/** One line saying what is wrong, then exit 1 (pino writes the line out before the process ends). */
function fail(log: Logger, message: string): never {
  log.fatal(message);
  process.exit(1);
}

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
async function serve(env: EnvironmentVariables, database: DatabaseConfig, log: Logger): Promise<void> {
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

/** GET /metrics on METRICS_PORT (docs/decisions.md#d160); a port that cannot be had stops the start-up. */
async function startMetricsPort(
  port: number,
  host: string,
  scrape: () => Promise<string>,
  log: Logger,
): Promise<void> {
  try {
    await serveMetricsPort(port, host, scrape);
  } catch (error) {
    fail(log, describeStartupFailure(error, { listen: `${host}:${port}` }));
  }
  log.info(`metrics on http://${host}:${port}/metrics`);
}

/**
 * With WEB_CONCURRENCY > 1 the primary only forks workers (each a whole server) and keeps them up.
 * A worker that exits before it ever listened failed to start (it said why): the primary then
 * stops them all and exits with 1, rather than restart them in a loop.
 */
function superviseWorkers(count: number, log: Logger): void {
  let stopping = false;
  const listening = new Set<number>();
  for (let i = 0; i < count; i++) {
    cluster.fork();
  }
  cluster.on('listening', (worker) => listening.add(worker.id));
  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) {
      worker?.process.kill(signal);
    }
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        log.info(`stopped: all ${count} workers have exited`);
        process.exit(listening.size < count ? 1 : 0);
      }
      return;
    }
    if (!listening.has(worker.id)) {
      log.fatal(`worker ${worker.process.pid} failed to start (${signal ?? code}): stopping`);
      stopAll('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        process.exit(1);
      }
      return;
    }
    log.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => stopAll(signal));
  }
}

async function bootstrap(): Promise<void> {
  const log = processLogger();
  let env: EnvironmentVariables;
  try {
    env = validateServerEnv(process.env);
  } catch (error) {
    fail(log, (error as Error).message.replace(/:\n\s*/, ': ').replace(/\n\s*/g, '; '));
  }
  const database = databaseConfigFrom(process.env);
  if (cluster.isPrimary) {
    const { name, version } = packageInfo();
    log.info(
      { version, node: process.version, workers: env.WEB_CONCURRENCY },
      `starting ${name} ${version} (Node ${process.version}, ${env.WEB_CONCURRENCY} worker(s), ${describeDatabase(database)})`,
    );
    if (database.driver === 'sqlite') {
      try {
        const applied = await migrateEmbeddedDatabase(database);
        if (applied > 0) {
          log.info(`applied ${applied} migration(s) to ${describeDatabase(database)}`);
        }
      } catch (error) {
        fail(log, describeStartupFailure(error, { database }));
      }
    }
    if (env.WEB_CONCURRENCY > 1) {
      // The workers' figures summed: what a worker's GET /metrics answers, or METRICS_PORT here.
      const observability = observabilityEnv();
      if (observability.METRICS === 'on') {
        const aggregate = aggregateClusterMetrics();
        if (observability.METRICS_PORT !== undefined) {
          await startMetricsPort(observability.METRICS_PORT, observability.METRICS_HOST, aggregate, log);
        }
      }
      superviseWorkers(env.WEB_CONCURRENCY, log);
      return;
    }
  }
  await serve(env, database, log);
}

bootstrap().catch((error: unknown) => fail(processLogger(), describeStartupFailure(error, {})));
