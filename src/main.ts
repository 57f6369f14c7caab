// First: a supported Node (one line and exit 1 otherwise), then the .env file, before anything
// reads the environment.
import 'src/bootstrap/supported-node';
import 'src/bootstrap/dotenv';
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { packageInfo } from 'src/bootstrap/package-info';
import { fail, startMetricsPort } from 'src/bootstrap/start-up';
import { describeStartupFailure } from 'src/bootstrap/startup-failure';
import { workerEnvAdditions, workerExecArgv } from 'src/bootstrap/worker-runtime';
import { processLogger } from 'src/common/logging/logger';
import { aggregateClusterMetrics } from 'src/common/metrics/metrics-endpoint';
import { databaseConfigFrom, describeDatabase } from 'src/config/database.env';
import { type EnvironmentVariables, validateServerEnv } from 'src/config/env.validation';
import { observabilityEnv } from 'src/config/observability.env';

/*
 * The entry point. With WEB_CONCURRENCY > 1 this process is the primary: it forks the workers and
 * keeps them up, and loads neither the application nor the ORM (src/bootstrap/serve.ts is imported
 * only where a server runs). Dynamic imports are relative: the build rewrites only static `src/` paths.
 */

/**
 * With WEB_CONCURRENCY > 1 the primary only forks workers (each a whole server) and keeps them up.
 * A worker that exits before it ever listened failed to start (it said why): the primary then
 * stops them all and exits with 1, rather than restart them in a loop. Each worker runs with the
 * serving flags and malloc setting of src/bootstrap/worker-runtime.ts.
 */
function superviseWorkers(count: number, log: Logger): void {
  let stopping = false;
  const listening = new Set<number>();
  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv) });
  const fork = () => cluster.fork(workerEnvAdditions(process.env));
  for (let i = 0; i < count; i++) {
    fork();
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
    fork();
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
  // A process that serves (a worker, or the one process) loads the application before it says it is
  // starting, so that its start-up is timed from there; the primary of several workers never loads it.
  const server =
    cluster.isWorker || env.WEB_CONCURRENCY === 1 ? await import('./bootstrap/serve') : undefined;
  if (cluster.isPrimary) {
    const { name, version } = packageInfo();
    log.info(
      { version, node: process.version, workers: env.WEB_CONCURRENCY },
      `starting ${name} ${version} (Node ${process.version}, ${env.WEB_CONCURRENCY} worker(s), ${describeDatabase(database)})`,
    );
    if (database.driver === 'sqlite') {
      try {
        const { migrateEmbeddedDatabase } = await import('./database/embedded');
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
  await server!.serve(env, database, log);
}

bootstrap().catch((error: unknown) => fail(processLogger(), describeStartupFailure(error, {})));
