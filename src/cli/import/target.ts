import type { DataSource, EntityManager } from 'typeorm';
import { inRequestTransaction } from 'src/common/database/request-transaction';
import type { Row, TableMapping } from './mapping';

/**
 * Rows only users make (the migrations' built-in rows excepted: the CDN 'ALL'): a target with one
 * of them is not empty.
 */
const USER_DATA: Record<string, string> = {
  cdn: "name <> 'ALL'",
  cachegroup: '1 = 1',
  server: '1 = 1',
  deliveryservice: '1 = 1',
  division: '1 = 1',
  phys_location: '1 = 1',
  tm_user: '1 = 1',
};

/** SQLite's limit on a statement's parameters is 32766; MySQL's 65535. */
const MAX_PARAMETERS = 30_000;
const MAX_BATCH_ROWS = 1_000;

/** This service's database (MySQL or the embedded SQLite file), written in one transaction. */
export class Target {
  constructor(private readonly dataSource: DataSource) {}

  /** The tables (of those only users fill) that hold rows. */
  async tablesWithData(): Promise<string[]> {
    const found: string[] = [];
    for (const [table, condition] of Object.entries(USER_DATA)) {
      const rows: unknown[] = await this.dataSource.query(
        `SELECT 1 AS one FROM ${this.name(table)} WHERE ${condition} LIMIT 1`,
      );
      if (rows.length > 0) {
        found.push(table);
      }
    }
    return found;
  }

  /**
   * Runs `work` in one transaction: all of it is written, or nothing. The transaction is the
   * ambient one of the application's DataSource, so that services called inside (the key store's)
   * take part in it rather than opening their own (docs/decisions.md#d189).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return inRequestTransaction(this.dataSource, (runner) => work(runner.manager));
  }

  /** Deletes every row of the mapped tables, children first; self references are cleared first. */
  async clear(manager: EntityManager, mappings: readonly TableMapping[]): Promise<void> {
    for (const mapping of [...mappings].reverse()) {
      const table = this.name(mapping.table);
      if (mapping.parents) {
        const sets = mapping.parents.map((column) => `${this.name(column)} = NULL`).join(', ');
        await manager.query(`UPDATE ${table} SET ${sets}`);
      }
      await manager.query(`DELETE FROM ${table}`);
    }
  }

  /** Inserts rows (already in an order their references allow) in multi-row statements. */
  async insert(
    manager: EntityManager,
    table: string,
    rows: Row[],
    progress: (written: number) => void = () => undefined,
  ): Promise<void> {
    if (rows.length === 0) {
      return;
    }
    const columns = Object.keys(rows[0]);
    const perBatch = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
    const head = `INSERT INTO ${this.name(table)} (${columns.map((c) => this.name(c)).join(', ')}) VALUES `;
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    for (let start = 0; start < rows.length; start += perBatch) {
      const batch = rows.slice(start, start + perBatch);
      const values: unknown[] = [];
      for (const row of batch) {
        for (const column of columns) {
          values.push(toTargetValue(row[column]));
        }
      }
      await manager.query(head + batch.map(() => tuple).join(', '), values);
      progress(start + batch.length);
    }
  }

  private name(identifier: string): string {
    return this.dataSource.driver.escape(identifier);
  }
}

/** A source value as both target drivers take it: booleans 1/0, times as UTC text, JSON as text. */
export function toTargetValue(value: unknown): unknown {
  if (value === null || value === undefined) {
    return null;
  }
  if (typeof value === 'boolean') {
    return value ? 1 : 0;
  }
  if (value instanceof Date) {
    return value.toISOString().replace('T', ' ').replace('Z', '');
  }
  if (typeof value === 'object') {
    return JSON.stringify(value);
  }
  return value;
}

/**
 * Rows ordered so that every row comes after the rows its `parents` columns name (a cache group
 * after its parents). Throws on a cycle, naming a row in it.
 */
export function parentsFirst(rows: Row[], parents: string[], table: string): Row[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const done = new Set<unknown>();
  const visiting = new Set<unknown>();
  const ordered: Row[] = [];
  const visit = (row: Row): void => {
    if (done.has(row.id)) {
      return;
    }
    if (visiting.has(row.id)) {
      throw new Error(`${table} ${String(row.id)} is its own ancestor (a cycle of ${parents.join(', ')})`);
    }
    visiting.add(row.id);
    for (const column of parents) {
      const parent = byId.get(row[column]);
      if (parent && parent !== row) {
        visit(parent);
      }
    }
    visiting.delete(row.id);
    done.add(row.id);
    ordered.push(row);
  };
  rows.forEach(visit);
  return ordered;
}
