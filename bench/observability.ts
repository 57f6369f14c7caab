import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
const ROUNDS = Number(process.env.BENCH_OBSERVABILITY_ROUNDS ?? 6);
const SECONDS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
}

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
export async function observabilityCosts(tools: BenchTools): Promise<string[]> {
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
  return [
    `### What metrics and tracing cost (GET ${PATH}, 32 connections)`,
    '',
    `The server's CPU time per request (user + system, from /proc), median of ${ROUNDS} rounds, against metrics off.`,
    '',
    '| variant | requests/s | server CPU µs per request | cost |',
    '| --- | --- | --- | --- |',
    ...variants.map(({ name, cpu, rps }) => {
      const cost = ((median(cpu) - base) / base) * 100;
      return `| ${name} | ${Math.round(median(rps))} | ${Math.round(median(cpu))} | ${cost >= 0 ? '+' : ''}${cost.toFixed(1)} % |`;
    }),
  ];
}
