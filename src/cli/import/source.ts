import { Client, type ClientConfig, types } from 'pg';
import type { Row, SourceVersion } from './mapping';

/** The schema versions this import knows, by the source's last migration. */
const KNOWN: Record<string, SourceVersion['release']> = {
  '2022050916074300': '7.0',
  '2023082308560644': '8.0',
};

/** A problem with the source database, said in the operator's terms. */
export class SourceError extends Error {}

/** Per statement on the source (the largest table is read in one statement). */
const STATEMENT_TIMEOUT_MS = 600_000;

/** The Traffic Ops database (PostgreSQL), read-only. */
export class Source {
  private constructor(
    private readonly client: Client,
    private readonly what: string,
  ) {}

  static async connect(url: string, what = 'the Traffic Ops database'): Promise<Source> {
    const config: ClientConfig = {
      connectionString: url,
      connectionTimeoutMillis: 15_000,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS,
      application_name: 'cdn-import',
      types: {
        getTypeParser: (oid: number, format?: unknown) => {
          // int8 and numeric as numbers (ids, coordinates), the rest as pg reads them.
          if (oid === 20 || oid === 1700) {
            return (value: string) => Number(value);
          }
          // json and jsonb stay text: snapshots and requests are copied as written.
          if (oid === 114 || oid === 3802) {
            return (value: string) => value;
          }
          return types.getTypeParser(oid, format as 'text') as (value: string) => unknown;
        },
      },
    };
    const client = new Client(config);
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw new SourceError(describeConnectError(error, url, what));
    }
    // One consistent view of the whole database for the run.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    return new Source(client, what);
  }

  /** The schema version, from golang-migrate's schema_migrations table; an unknown one is refused. */
  async version(): Promise<SourceVersion> {
    await this.requireTables(['schema_migrations']);
    const { rows } = await this.client.query<{ version: number | string; dirty: boolean }>(
      'SELECT version, dirty FROM schema_migrations ORDER BY version DESC LIMIT 1',
    );
    if (rows.length === 0) {
      throw new SourceError(`${this.what} has no schema version (schema_migrations is empty)`);
    }
    const migration = BigInt(rows[0].version).toString();
    if (rows[0].dirty) {
      throw new SourceError(
        `the Traffic Ops database's migration ${migration} is marked dirty (interrupted): finish it first`,
      );
    }
    const release = KNOWN[migration];
    if (!release) {
      throw new SourceError(
        `unknown Traffic Ops schema version ${migration}: the import reads ` +
          Object.entries(KNOWN)
            .map(([m, r]) => `${r} (${m})`)
            .join(' and '),
      );
    }
    return { release, migration };
  }

  async requireTables(tables: string[]): Promise<void> {
    const { rows } = await this.client.query<{ name: string }>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1)',
      [tables],
    );
    const present = new Set(rows.map((r) => r.name));
    const missing = tables.filter((t) => !present.has(t));
    if (missing.length > 0) {
      throw new SourceError(`${this.what} has no table ${missing.map((t) => `'${t}'`).join(', ')}`);
    }
  }

  async read(sql: string): Promise<Row[]> {
    const { rows } = await this.client.query<Row>(sql);
    return rows;
  }

  async close(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }
}

/** The connection failure in words: unreachable, refused credentials, no such database. */
export function describeConnectError(error: unknown, url: string, what: string): string {
  const where = safeUrl(url);
  const e = error as { code?: string; message?: string };
  switch (e.code) {
    case 'ECONNREFUSED':
    case 'EHOSTUNREACH':
    case 'ENOTFOUND':
    case 'ETIMEDOUT':
    case 'EAI_AGAIN':
      return `cannot reach ${what} at ${where} (${e.code})`;
    case '28P01':
    case '28000':
      return `${what} at ${where} refused the user name or password`;
    case '3D000':
      return `${what} at ${where} does not exist`;
    default:
      return `cannot connect to ${what} at ${where}: ${e.message ?? String(error)}`;
  }
}

/** The URL without its password, for messages. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) {
      parsed.password = '***';
    }
    return parsed.toString();
  } catch {
    return '(an invalid URL)';
  }
}
