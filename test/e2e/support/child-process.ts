import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The repository (the child processes run its sources through ts-node, as in development). */
export const ROOT = join(__dirname, '..', '..', '..');

/** Node options that run a TypeScript entry point of the repository from any working directory. */
const TS_NODE = [
  '-r',
  require.resolve('ts-node/register/transpile-only'),
  '-r',
  require.resolve('tsconfig-paths/register'),
];

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the spawn to the exit. */
  ms: number;
}

export interface ChildOptions {
  /** Variables to set (undefined: remove) over the test process's environment. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Node options before the entry point's own (e.g. `-r` a module to load first). */
  nodeArgs?: string[];
  /** startServer: how long the server may take to answer (60 s unless set). */
  startTimeoutMs?: number;
}

function environment(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) {
      delete env[key];
    } else {
      env[key] = value;
    }
  }
  return env;
}

/** A TypeScript entry point (`src/main.ts`, `src/cli.ts`) as a child process, its output collected. */
export class Child {
  readonly process: ChildProcess;
  readonly exited: Promise<Finished>;
  stdout = '';
  stderr = '';
  private readonly started = Date.now();

  constructor(entry: string, args: string[], options: ChildOptions = {}) {
    this.process = spawn(
      process.execPath,
      [...(options.nodeArgs ?? []), ...TS_NODE, join(ROOT, entry), ...args],
      {
        cwd: options.cwd ?? ROOT,
        env: environment(options.env),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.process.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.process.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) =>
      this.process.once('close', (code, signal) =>
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr, ms: Date.now() - this.started }),
      ),
    );
  }

  /** stdout's JSON log lines (every line must be one). */
  lines(): Record<string, unknown>[] {
    return this.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill(signal);
    }
  }
}

/** `npm run cli -- <args>`, from the sources: resolves when it has exited. */
export function runCli(args: string[], options: ChildOptions = {}): Promise<Finished> {
  return new Child('src/cli.ts', args, options).exited;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/health/live', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** The server (src/main.ts) on 127.0.0.1:<a free port>, once it answers its liveness probe. */
export async function startServer(options: ChildOptions = {}): Promise<{ server: Child; port: number }> {
  const port = await freePort();
  const server = new Child('src/main.ts', [], {
    ...options,
    env: { PORT: String(port), HOST: '127.0.0.1', WEB_CONCURRENCY: '1', LOG_FORMAT: 'json', ...options.env },
  });
  let exited = false;
  void server.exited.then(() => (exited = true));
  const attempts = (options.startTimeoutMs ?? 60_000) / 250;
  for (let attempt = 0; attempt < attempts && !exited; attempt++) {
    if (await answers(port)) {
      return { server, port };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  server.kill('SIGKILL');
  throw new Error(`the server did not start:\n${server.stdout}\n${server.stderr}`);
}
