import type * as mysql2 from 'mysql2';
import { FailoverPool, meansNodeDown } from 'src/database/failover-pool';

type Answer = { code: string } | 'ok';

/** A node's pool that answers getConnection from a script, and records what it was asked. */
function fakePool(name: string, answers: () => Answer, log: string[]): mysql2.Pool {
  return {
    getConnection(callback: (error: unknown, connection?: unknown) => void) {
      const answer = answers();
      log.push(`${name}:${answer === 'ok' ? 'ok' : answer.code}`);
      if (answer === 'ok') {
        callback(null, { node: name });
      } else {
        callback(Object.assign(new Error(answer.code), answer));
      }
    },
    end(callback: (error: null) => void) {
      log.push(`${name}:end`);
      callback(null);
    },
  } as unknown as mysql2.Pool;
}

function cluster(state: Record<string, Answer>) {
  const log: string[] = [];
  let clock = 1000;
  const hosts = ['a', 'b', 'c'].map((host, i) => ({ host, port: 4306 + i }));
  const pool = new FailoverPool({
    hosts,
    retryAfterMs: 5000,
    now: () => clock,
    createPool: (host) => fakePool(host.host, () => state[host.host], log),
  });
  const connect = () =>
    new Promise<string>((resolve, reject) =>
      pool.getConnection((error, connection) =>
        error ? reject(error) : resolve((connection as unknown as { node: string }).node),
      ),
    );
  return { pool, log, connect, advance: (ms: number) => (clock += ms) };
}

describe('FailoverPool: several nodes used as one pool', () => {
  it('uses the first node while it answers', async () => {
    const { connect, log } = cluster({ a: 'ok', b: 'ok', c: 'ok' });
    expect(await connect()).toBe('a');
    expect(await connect()).toBe('a');
    expect(log).toEqual(['a:ok', 'a:ok']);
  });

  it('moves to the next node within the same request when one refuses, and leaves it out for a while', async () => {
    const state: Record<string, Answer> = { a: { code: 'ECONNREFUSED' }, b: 'ok', c: 'ok' };
    const { connect, log, advance } = cluster(state);
    expect(await connect()).toBe('b');
    expect(await connect()).toBe('b');
    expect(log).toEqual(['a:ECONNREFUSED', 'b:ok', 'b:ok']);
    // Back after the retry delay, once it answers again.
    state.a = 'ok';
    advance(4999);
    expect(await connect()).toBe('b');
    advance(1);
    expect(await connect()).toBe('a');
  });

  it('treats a node outside the primary component (1047) as down, and tries the node out longest last', async () => {
    const state: Record<string, Answer> = {
      a: { code: 'ER_UNKNOWN_COM_ERROR' },
      b: { code: 'PROTOCOL_CONNECTION_LOST' },
      c: 'ok',
    };
    const { connect, log, advance } = cluster(state);
    expect(await connect()).toBe('c');
    state.c = { code: 'ECONNREFUSED' };
    advance(10);
    // The node in use first, then those out, the one out soonest back first; the last error is answered.
    await expect(connect()).rejects.toMatchObject({ code: 'PROTOCOL_CONNECTION_LOST' });
    expect(log.slice(3)).toEqual(['c:ECONNREFUSED', 'a:ER_UNKNOWN_COM_ERROR', 'b:PROTOCOL_CONNECTION_LOST']);
  });

  it('passes on other errors without moving (a wrong password is wrong on every node)', async () => {
    const { connect, log } = cluster({ a: { code: 'ER_ACCESS_DENIED_ERROR' }, b: 'ok', c: 'ok' });
    await expect(connect()).rejects.toMatchObject({ code: 'ER_ACCESS_DENIED_ERROR' });
    expect(log).toEqual(['a:ER_ACCESS_DENIED_ERROR']);
  });

  it('is taken off a node whose statement reported it down, and ends every pool it opened', async () => {
    const { pool, connect, log } = cluster({ a: 'ok', b: 'ok', c: 'ok' });
    expect(await connect()).toBe('a');
    pool.reportFailure(0);
    expect(await connect()).toBe('b');
    await new Promise((resolve) => pool.end(resolve));
    expect(log.filter((entry) => entry.endsWith(':end'))).toEqual(['a:end', 'b:end']);
  });

  it('knows which errors mean a node is down', () => {
    expect(meansNodeDown({ code: 'ECONNRESET' })).toBe(true);
    expect(meansNodeDown({ code: 'ER_DUP_ENTRY' })).toBe(false);
    expect(meansNodeDown(null)).toBe(false);
  });
});
