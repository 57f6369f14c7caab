import type { NextFunction, Request, Response } from 'express';
import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import { AggregatorRegistry, Registry } from 'prom-client';
import { appMetrics } from './metrics';

const SCRAPE = 'cdn-control-plane:metrics-scrape';
const SCRAPED = 'cdn-control-plane:metrics-scraped';
/** How long a worker waits for the primary's aggregate (prom-client waits 5 s for the workers). */
const SCRAPE_TIMEOUT_MS = 6000;

interface ScrapeMessage {
  type: string;
  id: number;
  text?: string;
  error?: string;
}

function isScrapeMessage(message: unknown, type: string): message is ScrapeMessage {
  return typeof message === 'object' && message !== null && (message as ScrapeMessage).type === type;
}

let scrapes = 0;
const pending = new Map<number, (message: ScrapeMessage) => void>();
let listening = false;

/** A worker asks the primary, which sums every worker's figures (prom-client's AggregatorRegistry). */
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

/** In a cluster worker: answers the primary's requests for this worker's figures. */
export function joinClusterMetrics(): void {
  if (!cluster.isWorker || joined) {
    return;
  }
  joined = true;
  AggregatorRegistry.setRegistries([appMetrics().registry]);
  // Constructing one installs prom-client's listener for the primary's requests.
  new AggregatorRegistry();
}

/**
 * In the primary of a cluster: answers each worker's scrape with the sum over all workers, and
 * returns the function that computes it (for METRICS_PORT, served by the primary itself).
 */
export function aggregateClusterMetrics(): () => Promise<string> {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isScrapeMessage(message, SCRAPE)) {
      return;
    }
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: SCRAPED, id: message.id, text }),
      (error: Error) => worker.send({ type: SCRAPED, id: message.id, error: error.message }),
    );
  });
  return () => aggregator.clusterMetrics();
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
