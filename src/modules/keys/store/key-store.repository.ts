import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { insertRows } from 'src/common/database/insert-rows';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import { KeyStoreEntry, type KeyKind } from './key-store.entity';

/** A sealed entry as written: everything but its id and time of change. */
export type KeyStoreColumns = Omit<KeyStoreEntry, 'id' | 'lastUpdated'>;

/** The clear metadata of a latest SSL entry, with what its delivery service says of it. */
export interface SslExpirationRow {
  owner: string;
  cdn: string | null;
  provider: string | null;
  expiration: Date | string | null;
  active: string | null;
  federations: number | string;
}

/**
 * The key_store table (docs/decisions.md#d65): the only file of the key store that runs SQL
 * (docs/architecture.md#data-access). Provided to the keys module and, alone, to the command line's
 * import. Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class KeyStoreRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The entry (kind, owner, version), or null. */
  entry(kind: KeyKind, owner: string, version: string): Promise<KeyStoreEntry | null> {
    return this.dataSource.manager.findOne(KeyStoreEntry, { where: { kind, owner, version } });
  }

  /** Every entry of `kind` and `version` whose clear metadata matches `where`, by owner. */
  entries(kind: KeyKind, version: string, where: { cdn?: string } = {}): Promise<KeyStoreEntry[]> {
    return this.dataSource.manager.find(KeyStoreEntry, {
      where: { kind, version, ...where },
      order: { owner: 'ASC' },
    });
  }

  /** Deletes the entries (kind, owner, each of `versions`), in the caller's transaction. */
  async removeVersions(
    manager: TransactionManager,
    kind: KeyKind,
    owner: string,
    versions: string[],
  ): Promise<void> {
    await manager.delete(KeyStoreEntry, { kind, owner, version: In(versions) });
  }

  /** Deletes the entries (kind, each of `owners`, version), in the caller's transaction. */
  async removeOwners(
    manager: TransactionManager,
    kind: KeyKind,
    version: string,
    owners: string[],
  ): Promise<void> {
    await manager.delete(KeyStoreEntry, { kind, version, owner: In(owners) });
  }

  /** Deletes every entry of `kind` and `version`: how many there were (in `manager`'s transaction when given). */
  async removeGroup(kind: KeyKind, version: string, manager?: TransactionManager): Promise<number> {
    const result = await (manager ?? this.dataSource.manager).delete(KeyStoreEntry, { kind, version });
    return result.affected ?? 0;
  }

  /** Deletes the entry (kind, owner, version): whether there was one. */
  async remove(kind: KeyKind, owner: string, version: string): Promise<boolean> {
    const result = await this.dataSource.manager.delete(KeyStoreEntry, { kind, owner, version });
    return (result.affected ?? 0) > 0;
  }

  /** Adds an entry, in the caller's transaction. */
  async add(manager: TransactionManager, columns: KeyStoreColumns): Promise<void> {
    await insertRows(manager, KeyStoreEntry, columns);
  }

  /**
   * The clear metadata of every entry (ssl, `version`), by owner, with its delivery service's
   * `active` state and how many federations use it (nothing decrypted).
   */
  sslExpirations(version: string): Promise<SslExpirationRow[]> {
    return this.dataSource.query<SslExpirationRow[]>(
      'SELECT k.owner AS owner, k.cdn AS cdn, k.provider AS provider, k.expiration AS expiration, ' +
        'ds.active AS active, (SELECT COUNT(*) FROM federation_deliveryservice fd ' +
        'WHERE fd.deliveryservice = ds.id) AS federations ' +
        'FROM key_store k LEFT JOIN deliveryservice ds ON ds.xml_id = k.owner ' +
        "WHERE k.kind = 'ssl' AND k.version = ? ORDER BY k.owner",
      [version],
    );
  }
}

/**
 * Deletes every entry of the key store, in the caller's transaction: the import from Traffic Ops
 * replaces the database's contents, keys included (docs/decisions.md#d188). Answers how many there were.
 */
export async function clearKeyStore(manager: TransactionManager): Promise<number> {
  const result = await manager.createQueryBuilder().delete().from(KeyStoreEntry).execute();
  return result.affected ?? 0;
}
