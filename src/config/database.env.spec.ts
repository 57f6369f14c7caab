import { databaseConfigFrom, describeDatabase } from 'src/config/database.env';

describe('database settings', () => {
  const mysql = { DATABASE_URL: 'mysql://cdn@db.example.net:3306/cdn', SESSION_SECRET: 's'.repeat(32) };

  it('has timeouts by default', () => {
    expect(databaseConfigFrom(mysql)).toMatchObject({ queryTimeoutMs: 10000, acquireTimeoutMs: 5000 });
    expect(databaseConfigFrom({})).toMatchObject({ driver: 'sqlite', busyTimeoutMs: 5000 });
  });

  it('reads DB_QUERY_TIMEOUT_MS and DB_ACQUIRE_TIMEOUT_MS (the latter is the busy timeout of SQLite)', () => {
    expect(
      databaseConfigFrom({ ...mysql, DB_QUERY_TIMEOUT_MS: '2500', DB_ACQUIRE_TIMEOUT_MS: '750' }),
    ).toMatchObject({ queryTimeoutMs: 2500, acquireTimeoutMs: 750 });
    expect(databaseConfigFrom({ DB_ACQUIRE_TIMEOUT_MS: '750' })).toMatchObject({ busyTimeoutMs: 750 });
  });

  it.each([
    ['DB_QUERY_TIMEOUT_MS', 'soon'],
    ['DB_QUERY_TIMEOUT_MS', '0'],
    ['DB_QUERY_TIMEOUT_MS', '99'],
    ['DB_QUERY_TIMEOUT_MS', '600001'],
    ['DB_ACQUIRE_TIMEOUT_MS', '1.5'],
    ['DB_ACQUIRE_TIMEOUT_MS', '-1'],
  ])('refuses %s=%s', (key, value) => {
    expect(() => databaseConfigFrom({ ...mysql, [key]: value })).toThrow(
      new RegExp(`^Invalid configuration:\\n  ${key}: `),
    );
  });
});

describe('database settings for a cluster', () => {
  const secret = { SESSION_SECRET: 's'.repeat(32) };

  it('reads every host of DATABASE_URL, and sets wsrep_sync_wait 1 when there are several', () => {
    const config = databaseConfigFrom({ ...secret, DATABASE_URL: 'mysql://cdn:pw@n1:4306,n2:4307,n3/cdn' });
    expect(config).toMatchObject({
      driver: 'mysql',
      hosts: [
        { host: 'n1', port: 4306 },
        { host: 'n2', port: 4307 },
        { host: 'n3', port: 3306 },
      ],
      wsrepSyncWait: 1,
      failoverRetryMs: 5000,
    });
    expect(describeDatabase(config)).toBe('MySQL cdn@n1:4306,n2:4307,n3:3306/cdn');
    expect(databaseConfigFrom({ ...secret, DATABASE_URL: 'mysql://cdn@n1/cdn' })).toMatchObject({
      wsrepSyncWait: undefined,
    });
  });

  it('reads DB_WSREP_SYNC_WAIT and DB_FAILOVER_RETRY_MS, and refuses bad values', () => {
    const url = { ...secret, DATABASE_URL: 'mysql://cdn@n1,n2/cdn' };
    expect(
      databaseConfigFrom({ ...url, DB_WSREP_SYNC_WAIT: '0', DB_FAILOVER_RETRY_MS: '250' }),
    ).toMatchObject({
      wsrepSyncWait: 0,
      failoverRetryMs: 250,
    });
    expect(() => databaseConfigFrom({ ...url, DB_WSREP_SYNC_WAIT: '16' })).toThrow(/DB_WSREP_SYNC_WAIT/);
    expect(() => databaseConfigFrom({ ...url, DB_FAILOVER_RETRY_MS: '5' })).toThrow(/DB_FAILOVER_RETRY_MS/);
  });
});
