import type { EntityManager } from 'typeorm';
import { KeyStoreEntry } from './key-store.entity';

/**
 * Deletes every entry of the key store, in the caller's transaction: the import from Traffic Ops
 * replaces the database's contents, keys included (docs/decisions.md#d188). Answers how many there were.
 */
export async function clearKeyStore(manager: EntityManager): Promise<number> {
  const result = await manager.createQueryBuilder().delete().from(KeyStoreEntry).execute();
  return result.affected ?? 0;
}
