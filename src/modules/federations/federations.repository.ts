import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { classifyDbError } from 'src/common/database/db-error';
import { writeLock } from 'src/common/database/locks';
import { Federation } from './federation.entity';

/** A link table of federations: its name and its (federation, other) columns. */
export interface LinkTable {
  table: 'federation_deliveryservice' | 'federation_tmuser' | 'federation_federation_resolver';
  columns: [string, string];
}

/** `?, ?, ?` for an IN list of `n` bound values (n ≥ 1). */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/**
 * The federation table and the link statements the module's folders share (their own statements
 * are in each folder's repository): the only file of the module's root that runs SQL
 * (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class FederationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The federation, or null. */
  federation(id: number): Promise<Federation | null> {
    return this.dataSource.manager.findOneBy(Federation, { id });
  }

  /**
   * The federation, locked on MySQL for the rest of the transaction so that it cannot vanish (or
   * change its CNAME) before the transaction's own writes; null when there is none.
   */
  lockedFederation(manager: EntityManager, id: number): Promise<Federation | null> {
    return manager.getRepository(Federation).findOne({ where: { id }, lock: writeLock(manager.connection) });
  }

  /**
   * Inserts link rows in one statement: false, and nothing written, when an existing pair (or one
   * given twice) fails it on the unique index. A missing referenced row still fails the statement
   * (404 from the central mapping).
   */
  async link(
    manager: EntityManager,
    { table, columns }: LinkTable,
    pairs: [number, number][],
  ): Promise<boolean> {
    if (pairs.length === 0) {
      return true;
    }
    try {
      await manager.query(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${pairs.map(() => '(?, ?)').join(', ')}`,
        pairs.flat(),
      );
      return true;
    } catch (error) {
      if (classifyDbError(error)?.kind !== 'unique') {
        throw error;
      }
      return false;
    }
  }

  /**
   * Inserts link rows, leaving alone the pairs that already exist (the table's unique index decides,
   * in the same statement): `ON DUPLICATE KEY UPDATE` on MySQL, `ON CONFLICT DO NOTHING` on SQLite.
   * Missing referenced rows still fail the statement (404 from the central mapping).
   */
  async linkIgnoringDuplicates(
    manager: EntityManager,
    { table, columns }: LinkTable,
    pairs: [number, number][],
  ): Promise<void> {
    if (pairs.length === 0) {
      return;
    }
    const values = pairs.map(() => '(?, ?)').join(', ');
    const conflict =
      manager.connection.options.type === 'mysql'
        ? `ON DUPLICATE KEY UPDATE ${columns[0]} = ${columns[0]}`
        : `ON CONFLICT (${columns.join(', ')}) DO NOTHING`;
    await manager.query(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values} ${conflict}`,
      pairs.flat(),
    );
  }

  /** Of `ids`, those linked to the federation. */
  async linked(
    manager: EntityManager,
    { table, columns }: LinkTable,
    federationId: number,
    ids: number[],
  ): Promise<number[]> {
    const existing = await manager.query<{ id: number | string }[]>(
      `SELECT ${columns[1]} AS id FROM ${table} WHERE ${columns[0]} = ? AND ${columns[1]} IN (${placeholders(ids.length)})`,
      [federationId, ...ids],
    );
    return existing.map((row) => Number(row.id));
  }
}
