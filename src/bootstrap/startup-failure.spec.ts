import { describeStartupFailure } from './startup-failure';

const mysql = {
  driver: 'mysql' as const,
  url: 'mysql://cdn:s3cret@db.example.net:3306/cdn',
  poolSize: 1,
  queryTimeoutMs: 10000,
  acquireTimeoutMs: 5000,
  connectTimeoutMs: 1500,
};

function failure(code: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`${code} happened\n    at somewhere (file.js:1:1)`), { code, ...extra });
}

describe('describeStartupFailure', () => {
  it('says why listening failed, in one line', () => {
    const where = { listen: '0.0.0.0:3000' };
    expect(describeStartupFailure(failure('EADDRINUSE', { syscall: 'listen' }), where)).toBe(
      'cannot listen on 0.0.0.0:3000: the port is already in use by another process',
    );
    expect(describeStartupFailure(failure('ENOTFOUND', { syscall: 'getaddrinfo' }), where)).toBe(
      'cannot listen on 0.0.0.0:3000: the host name does not resolve (check HOST)',
    );
    expect(describeStartupFailure(failure('EADDRINUSE', { syscall: 'bind' }), where)).toBe(
      'cannot listen on 0.0.0.0:3000: the port is already in use by another process',
    );
    expect(describeStartupFailure(failure('EADDRNOTAVAIL', { syscall: 'listen' }), where)).toBe(
      'cannot listen on 0.0.0.0:3000: this machine has no such address (check HOST)',
    );
  });

  it('says why the database refused, without its password', () => {
    const denied = failure('ER_ACCESS_DENIED_ERROR', {
      sqlMessage: "Access denied for user 'cdn'@'10.0.0.1'",
    });
    const text = describeStartupFailure(denied, { database: mysql });
    expect(text).toBe(
      'cannot connect to MySQL cdn@db.example.net:3306/cdn: access denied (check the user name and password in ' +
        "DATABASE_URL): Access denied for user 'cdn'@'10.0.0.1'",
    );
    expect(text).not.toContain('s3cret');
    expect(describeStartupFailure(failure('ETIMEDOUT'), { database: mysql })).toBe(
      'cannot connect to MySQL cdn@db.example.net:3306/cdn: no answer within 1500 ms (DB_CONNECT_TIMEOUT_MS)',
    );
    expect(describeStartupFailure(failure('ER_BAD_DB_ERROR'), { database: mysql })).toBe(
      'cannot connect to MySQL cdn@db.example.net:3306/cdn: the database does not exist (npm run migration:run creates it)',
    );
  });

  it('keeps anything else to its message, on one line', () => {
    expect(describeStartupFailure(new Error('first\nsecond'), { database: mysql })).toBe('first; second');
  });
});
