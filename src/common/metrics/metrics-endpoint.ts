import type { NextFunction, Request, Response } from 'express';
import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import { AggregatorRegistry, Registry } from 'prom-client';
import { appMetrics } from './metrics';

const SCRAPE = 'cdn-control-plane:metrics-scrape';
const SCRAPED = 'cdn-control-plane:metrics-scraped';
const READY = 'cdn-control-plane:metrics-ready';
const COLLECT = 'cdn-control-plane:metrics-collect';
const COLLECTED = 'cdn-control-plane:metrics-collected';
/** How long the primary waits for the workers' figures. */
const COLLECT_TIMEOUT_MS = 5000;
/** How long a worker waits for the primary's aggregate. */
const SCRAPE_TIMEOUT_MS = 6000;

interface ScrapeMessage {
  type: string;
  id: number;
  text?: string;
  error?: string;
  metrics?: object[];
}

function isScrapeMessage(message: unknown, type: string): message is ScrapeMessage {
  return typeof message === 'object' && message !== null && (message as ScrapeMessage).type === type;
}

let scrapes = 0;
const pending = new Map<number, (message: ScrapeMessage) => void>();
let listening = false;

/** A worker asks the primary, which sums every worker's figures. */
function askPrimary(): Promise<string> {
  if (!listening) {
    listening = true;
    process.on('message', (message: unknown) => {
      if (isScrapeMessage(message, SCRAPED)) {
        pending.get(message.id)?.(message);
      }
    });
  }
  const id = ++scrapes;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`the primary process did not answer within ${SCRAPE_TIMEOUT_MS} ms`));
    }, SCRAPE_TIMEOUT_MS);
    pending.set(id, (message) => {
      clearTimeout(timer);
      pending.delete(id);
      if (message.text !== undefined) {
        resolve(message.text);
      } else {
        reject(new Error(message.error ?? 'no metrics'));
      }
    });
    process.send!({ type: SCRAPE, id });
  });
}

/** The metrics text: this process's, or in a cluster worker the whole cluster's. */
export function scrapeMetrics(): Promise<string> {
  return cluster.isWorker ? askPrimary() : appMetrics().registry.metrics();
}

let joined = false;

/**
 * In a cluster worker: answers the primary's requests for this worker's figures, and tells the
 * primary it does (a worker still starting is not asked, so it cannot hold a scrape up).
 */
export function joinClusterMetrics(): void {
  if (!cluster.isWorker || joined) {
    return;
  }
  joined = true;
  process.on('message', (message: unknown) => {
    if (!isScrapeMessage(message, COLLECT)) {
      return;
    }
    appMetrics()
      .registry.getMetricsAsJSON()
      .then(
        (metrics) => process.send!({ type: COLLECTED, id: message.id, metrics }),
        (error: Error) => process.send!({ type: COLLECTED, id: message.id, error: error.message }),
      );
  });
  process.send!({ type: READY });
}

interface Collection {
  waiting: Set<number>;
  figures: object[][];
  finish(error?: Error): void;
}

/**
 * In the primary of a cluster: answers each worker's scrape with the sum over the workers, and
 * returns the function that computes it (for METRICS_PORT, served by the primary itself). Only the
 * workers that said they answer are asked (docs/decisions.md#d186): one still starting has counted
 * nothing yet, and one that exits while asked is left out of that scrape (its figures went with it).
 * The figures are summed by prom-client (`AggregatorRegistry.aggregate`: counters and histograms
 * added, each metric's own rule for the process gauges).
 */
export function aggregateClusterMetrics(): () => Promise<string> {
  const ready = new Set<number>();
  const collections = new Map<number, Collection>();
  let collected = 0;

  const collect = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const id = ++collected;
      const workers = [...ready]
        .map((workerId) => cluster.workers?.[workerId])
        .filter((worker) => worker !== undefined && worker.isConnected());
      const collection: Collection = {
        waiting: new Set(workers.map((worker) => worker!.id)),
        figures: [],
        finish: (error) => {
          clearTimeout(timer);
          collections.delete(id);
          if (error) {
            reject(error);
            return;
          }
          AggregatorRegistry.aggregate(collection.figures).metrics().then(resolve, reject);
        },
      };
      const timer = setTimeout(
        () =>
          collection.finish(
            new Error(`${collection.waiting.size} worker(s) did not answer within ${COLLECT_TIMEOUT_MS} ms`),
          ),
        COLLECT_TIMEOUT_MS,
      );
      collections.set(id, collection);
      for (const worker of workers) {
        worker!.send({ type: COLLECT, id });
      }
      if (collection.waiting.size === 0) {
        collection.finish();
      }
    });

  const settle = (collection: Collection, workerId: number): void => {
    if (collection.waiting.delete(workerId) && collection.waiting.size === 0) {
      collection.finish();
    }
  };

  cluster.on('message', (worker, message: unknown) => {
    if (isScrapeMessage(message, READY)) {
      ready.add(worker.id);
    } else if (isScrapeMessage(message, COLLECTED)) {
      const collection = collections.get(message.id);
      if (!collection || !collection.waiting.has(worker.id)) {
        return;
      }
      if (message.error !== undefined) {
        collection.finish(new Error(message.error));
        return;
      }
      collection.figures.push(message.metrics ?? []);
      settle(collection, worker.id);
    } else if (isScrapeMessage(message, SCRAPE)) {
      collect().then(
        (text) => worker.send({ type: SCRAPED, id: message.id, text }),
        (error: Error) => worker.send({ type: SCRAPED, id: message.id, error: error.message }),
      );
    }
  });
  cluster.on('exit', (worker) => {
    ready.delete(worker.id);
    for (const collection of collections.values()) {
      settle(collection, worker.id);
    }
  });
  return collect;
}

function answer(scrape: () => Promise<string>, res: Response | import('node:http').ServerResponse): void {
  scrape().then(
    (text) => {
      res.statusCode = 200;
      res.setHeader('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE);
      res.setHeader('Cache-Control', 'no-store');
      res.end(text);
    },
    (error: Error) => {
      res.statusCode = 503;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end(`metrics unavailable: ${error.message}\n`);
    },
  );
}

/** GET /metrics on the service's port: before the sessions and the request log (never behind either). */
export function metricsRoute(scrape: () => Promise<string> = scrapeMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      next();
      return;
    }
    answer(scrape, res);
  };
}

/** GET /metrics on a port of its own (METRICS_PORT, bound to METRICS_HOST: loopback by default). */
export function serveMetricsPort(port: number, host: string, scrape: () => Promise<string>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.statusCode = 404;
      res.end('not found: the metrics are at /metrics\n');
      return;
    }
    answer(scrape, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
