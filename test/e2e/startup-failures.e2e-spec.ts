import { createServer, type Server, type Socket } from 'node:net';
import { freePort } from 'test/e2e/support/child-process';
import { expectOneClearLine, failedStart, type FailedStart } from 'test/e2e/support/startup';

/**
 * A start-up that cannot succeed stops at once, exit code 1, with one line saying what is wrong:
 * the port taken, a HOST that does not resolve, a database server that accepts connections and
 * never answers (a plain TCP listener). The servers start concurrently.
 */
describe('start-up failures', () => {
  let taken: Server, silent: Server;
  const held: Socket[] = [];
  let takenPort: number, silentPort: number;
  const results: Record<string, FailedStart> = {};

  const listening = (server: Server): Promise<number> =>
    new Promise((resolve) => {
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });

  beforeAll(async () => {
    taken = createServer();
    takenPort = await listening(taken);
    silent = createServer((socket) => held.push(socket));
    silentPort = await listening(silent);
    const port = String(await freePort());
    [results.portInUse, results.badHost, results.silentDatabase] = await Promise.all([
      failedStart({ env: { PORT: String(takenPort) } }),
      failedStart({ env: { PORT: port, HOST: 'no-such-host.invalid' } }),
      failedStart({
        env: {
          PORT: port,
          DATABASE_URL: `mysql://cdn:secret@127.0.0.1:${silentPort}/cdn`,
          SQLITE_PATH: undefined,
          SESSION_SECRET: 'x'.repeat(40),
          DB_CONNECT_TIMEOUT_MS: '1500',
        },
      }),
    ]);
  }, 120_000);

  afterAll(() => {
    held.forEach((socket) => socket.destroy());
    taken.close();
    silent.close();
  });

  it('the port in use', () => {
    expectOneClearLine(
      results.portInUse,
      `cannot listen on 127.0.0.1:${takenPort}: the port is already in use by another process`,
    );
    expect(results.portInUse.failedAfterMs).toBeLessThan(5000);
  });

  it('a HOST that does not resolve', () => {
    expectOneClearLine(
      results.badHost,
      /^cannot listen on no-such-host\.invalid:\d+: the host name does not resolve \(check HOST\)$/,
    );
    expect(results.badHost.failedAfterMs).toBeLessThan(5000);
  });

  it('a database server that accepts connections and never answers', () => {
    expectOneClearLine(
      results.silentDatabase,
      `cannot connect to MySQL cdn@127.0.0.1:${silentPort}/cdn: no answer within 1500 ms (DB_CONNECT_TIMEOUT_MS)`,
    );
    expect(results.silentDatabase.failedAfterMs).toBeGreaterThanOrEqual(1500);
    expect(results.silentDatabase.failedAfterMs).toBeLessThan(5000);
    expect(results.silentDatabase.stdout).not.toContain('secret');
  });
});
