import { databaseConfigFrom } from 'src/config/database.config';

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
