/**
 * How a process that serves runs: the V8 flags and the malloc setting that keep a worker's memory
 * bounded under a fleet of caches (docs/performance.md, "Memory under the fleet"). `npm run start:prod`
 * passes the flags to the process it starts; the primary of several workers (src/main.ts) also gives
 * them to each worker it forks, so that `node dist/src/main` started some other way still has them.
 * A setting the operator gave (the same flag on the command line, GLIBC_TUNABLES in the environment)
 * is kept as it is (docs/decisions.md#d231).
 */

/**
 * - A young generation of 2 × 8 MiB: a larger one holds more pages through a load (V8 keeps the pages a
 *   collection frees until the process is idle); 2 × 16 MiB cost ~17 MiB more per worker in the fleet
 *   for no CPU difference beyond the runs' spread.
 * - The old generation grows by 30 % over what survived its last full collection before the next one,
 *   where V8 otherwise lets it grow up to four times under load.
 * - `--experimental-async-context-frame`: the request context (the log's request ids) without a hook
 *   on every promise; Node 24 does this by default and accepts the flag.
 */
export const SERVING_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=8',
  '--heap-growing-percent=30',
  '--experimental-async-context-frame',
];

/**
 * glibc's malloc: an allocation of 1 MiB or more is mapped on its own and given back when freed. By
 * default the threshold rises to the largest block freed so far, so after the first sign-in (scrypt
 * takes 16 MiB on a thread of the pool) each thread's arena keeps ~32 MiB for good. Other C libraries
 * ignore the variable.
 */
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=1048576';

/** A flag's name: `--max-semi-space-size=8` → `--max-semi-space-size`. */
function flagName(flag: string): string {
  return flag.split('=')[0].replace(/_/g, '-');
}

/** The Node options of a worker: the primary's own, then each serving flag the primary lacks. */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.map(flagName));
  return [...execArgv, ...SERVING_NODE_FLAGS.filter((flag) => !given.has(flagName(flag)))];
}

/**
 * What a worker's environment adds to the primary's (`cluster.fork`'s argument): the malloc setting,
 * unless GLIBC_TUNABLES is set.
 */
export function workerEnvAdditions(env: NodeJS.ProcessEnv): Record<string, string> {
  return env.GLIBC_TUNABLES === undefined ? { GLIBC_TUNABLES: MALLOC_TUNABLES } : {};
}
