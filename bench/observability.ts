import { median } from './client';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunStart, runLine } from './sections';

/** What the scenario borrows from bench/run.ts (its server, client and CPU reading). */
export interface BenchTools {
  startServer(logLevel: string, extraEnv: Record<string, string>): ChildProcess;
  login(): Promise<string>;
  run(
    path: string,
    connections: number,
    cookie: string,
    seconds: number,
  ): Promise<{ requests: { total: number; average: number } }>;
  cpuMicros(pid: number): number;
  stop(server: ChildProcess): Promise<void>;
}

interface Variant {
  name: string;
  env: Record<string, string>;
  cpu: number[];
  rps: number[];
}

const PATH = '/api/4.0/cdns';
const ROUNDS = Number(process.env.BENCH_OBSERVABILITY_ROUNDS ?? 9);
const SECONDS = 5;
/** Issue 32's bound: metrics on (the default) cost under 5 % of a small request's CPU. */
const TARGET_PERCENT = 5;

export const OBSERVABILITY_HEADING = '## What metrics and tracing cost (issue 32)';

/** An OTLP/HTTP receiver that accepts and discards what it is sent (the spans' export is measured, not a collector). */
async function discardingReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * `npm run bench -- --only=observability`: the server's CPU time per small request (GET
 * /api/4.0/cdns, signed in, 32 connections) with metrics off, metrics on (the default), and metrics
 * on with tracing on (spans exported to a local receiver). The servers alternate over ROUNDS rounds,
 * their order turning each round, and the medians are compared (docs/decisions.md#d160).
 */
export async function observabilityCosts(started: RunStart, tools: BenchTools): Promise<string[]> {
  const receiver = await discardingReceiver();
  const variants: Variant[] = [
    { name: 'metrics off (`METRICS=off`)', env: { METRICS: 'off' }, cpu: [], rps: [] },
    { name: 'metrics on (the default)', env: {}, cpu: [], rps: [] },
    {
      name: 'metrics on, tracing on (`OTEL_EXPORTER_OTLP_ENDPOINT`)',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      cpu: [],
      rps: [],
    },
  ];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        const server = tools.startServer('warn', variant.env);
        try {
          const cookie = await tools.login();
          await tools.run(PATH, 32, cookie, SECONDS); // warm-up
          const before = tools.cpuMicros(server.pid!);
          const result = await tools.run(PATH, 32, cookie, SECONDS);
          variant.cpu.push((tools.cpuMicros(server.pid!) - before) / result.requests.total);
          variant.rps.push(result.requests.average);
          console.log(
            `observability round ${round + 1}, ${variant.name}: ${Math.round(result.requests.average)} req/s`,
          );
        } finally {
          await tools.stop(server);
        }
      }
    }
  } finally {
    receiver.server.close();
  }
  const base = median(variants[0].cpu);
  const cost = (variant: Variant): number => ((median(variant.cpu) - base) / base) * 100;
  const percent = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(1)} %`;
  const metricsCost = cost(variants[1]);
  return [
    OBSERVABILITY_HEADING,
    '',
    `GET ${PATH} (a small list), signed in as admin, one worker, 32 connections, request logs off. Three`,
    'servers on the same database: metrics off, metrics on (the default), metrics on with tracing on (every',
    'span exported over OTLP/HTTP to a receiver in the bench process that discards it). They alternate over',
    `${ROUNDS} rounds, their order reversed every other round; each round starts the server, warms it up for`,
    `${SECONDS} s, then measures ${SECONDS} s. The figure compared is the server's CPU time per request (user + system,`,
    'from /proc), the median of the rounds, against metrics off: unlike requests/s it does not move with',
    "the load generator's, the database's and other jobs' share of the cores. It runs only when asked; it",
    'writes this section, and a full `npm run bench` keeps it as the last run wrote it.',
    runLine('npm run bench -- --only=observability', started),
    'The machine is shared (other jobs ran meanwhile, see the load average): read differences of a few per',
    'cent as noise unless they repeat.',
    '',
    '| variant | requests/s | server CPU µs per request | cost | CPU µs per request, each round |',
    '|---|---:|---:|---:|---|',
    ...variants.map(
      (variant) =>
        `| ${variant.name} | ${Math.round(median(variant.rps))} | ${Math.round(median(variant.cpu))} | ` +
        `${percent(cost(variant))} | ${variant.cpu.map((cpu) => Math.round(cpu)).join(', ')} |`,
    ),
    '',
    metricsCost < TARGET_PERCENT
      ? `Metrics on by default cost ${percent(metricsCost)} of a small request's CPU in this run: within issue 32's ` +
        `bound of ${TARGET_PERCENT} %.`
      : `**Metrics on by default cost ${percent(metricsCost)} of a small request's CPU in this run: NOT within ` +
        `issue 32's bound of ${TARGET_PERCENT} %.**`,
    '',
  ];
}
