import { Child, type ChildOptions, type Finished } from 'test/e2e/support/child-process';

export interface FailedStart extends Finished {
  lines: Record<string, unknown>[];
  /** From the start-up's first line ("starting …") to its fatal line, by the server's own clock. */
  failedAfterMs: number;
}

/** Starts the server (src/main.ts) expecting it to fail; resolves with what it said, once it has exited. */
export async function failedStart(options: ChildOptions): Promise<FailedStart> {
  const child = new Child('src/main.ts', [], {
    ...options,
    env: { HOST: '127.0.0.1', WEB_CONCURRENCY: '1', LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...options.env },
  });
  const finished = await child.exited;
  const lines = child.lines();
  const first = lines[0]?.time as number;
  const fatal = lines.find((line) => line.level === 60)?.time as number;
  return { ...finished, lines, failedAfterMs: fatal - first };
}

/**
 * The failure as an operator sees it: exit code 1, nothing on stderr, and on stdout the start-up
 * line and exactly one more, at fatal level, saying what is wrong (no stack, no other error line).
 */
export function expectOneClearLine(result: FailedStart, text: string | RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toBe('');
  const problems = result.lines.filter((line) => (line.level as number) >= 50);
  expect(problems).toEqual([
    {
      level: 60,
      time: expect.any(Number),
      msg: typeof text === 'string' ? text : expect.stringMatching(text),
    },
  ]);
  expect(result.stdout).not.toMatch(/\n\s+at /);
}
