import type { Logger } from 'pino';
import { describeStartupFailure } from 'src/bootstrap/startup-failure';
import { serveMetricsPort } from 'src/common/metrics/metrics-endpoint';

/**
 * What the primary and a worker both do while starting (src/main.ts, src/bootstrap/serve.ts).
 */

/** One line saying what is wrong, then exit 1 (pino writes the line out before the process ends). */
export function fail(log: Logger, message: string): never {
  log.fatal(message);
  process.exit(1);
}

/** GET /metrics on METRICS_PORT (docs/decisions.md#d160); a port that cannot be had stops the start-up. */
export async function startMetricsPort(
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
