import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { classifyDbError } from 'src/common/database/db-error';
import { writeLock } from 'src/common/database/locks';
import { Federation } from './federation.entity';

/**
 * Reads a federation inside a transaction, locked on MySQL so that it cannot vanish (or change its
 * CNAME) before the transaction's own writes; throws `notFound` when there is none.
 */
export async function lockFederation(
  manager: EntityManager,
  id: number,
  notFound: () => Error = () => new NotFoundException(`federation ${id} not found`),
): Promise<Federation> {
  const federation = await manager.getRepository(Federation).findOne({
    where: { id },
    lock: writeLock(manager.connection),
  });
  if (!federation) {
    throw notFound();
  }
  return federation;
}

/**
 * Inserts link rows, leaving alone the pairs that already exist (the table's unique index decides,
 * in the same statement): `ON DUPLICATE KEY UPDATE` on MySQL, `ON CONFLICT DO NOTHING` on SQLite.
 * Missing referenced rows still fail the statement (404 from the central mapping).
 */
export async function insertLinksIgnoringDuplicates(
  manager: EntityManager,
  table: string,
  columns: [string, string],
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

/** Inserts link rows in one statement; an existing pair fails it (unique index). */
export async function insertLinks(
  manager: EntityManager,
  table: string,
  columns: [string, string],
  pairs: [number, number][],
): Promise<void> {
  if (pairs.length === 0) {
    return;
  }
  await manager.query(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${pairs.map(() => '(?, ?)').join(', ')}`,
    pairs.flat(),
  );
}

/** `?, ?, ?` for an IN list of `n` bound values (n ≥ 1). */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/**
 * Inserts the links of one federation to `ids` in one statement. An existing pair, or an id given
 * twice, fails it on the unique index; the answer then names the first such pair in request order,
 * as the original words it (`<table> <cols> '<federation>, <id>' already exists.`). A missing
 * referenced row still reaches the central mapping (404 `<table> not found`).
 */
export async function insertFederationLinks(
  manager: EntityManager,
  table: string,
  columns: [string, string],
  federationId: number,
  ids: number[],
): Promise<void> {
  try {
    await insertLinks(
      manager,
      table,
      columns,
      ids.map((id) => [federationId, id]),
    );
  } catch (error) {
    if (classifyDbError(error)?.kind !== 'unique') {
      throw error;
    }
    const existing = await manager.query<{ id: number | string }[]>(
      `SELECT ${columns[1]} AS id FROM ${table} WHERE ${columns[0]} = ? AND ${columns[1]} IN (${placeholders(ids.length)})`,
      [federationId, ...ids],
    );
    const linked = new Set(existing.map((row) => Number(row.id)));
    const seen = new Set<number>();
    const duplicate = ids.find((id) => linked.has(id) || seen.has(id) || (seen.add(id), false));
    throw new BadRequestException(
      `${table} ${columns.join(', ')} '${federationId}, ${duplicate ?? ids[0]}' already exists.`,
    );
  }
}
