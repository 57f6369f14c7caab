import type { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalInet } from './support/inet';

/**
 * Federation resolvers' addresses in the canonical form the service writes since (the original's
 * `inet`, docs/decisions.md#d221): one address, one resolver. A resolver whose canonical address
 * another already has is the same resolver twice: its federations are linked to the other, and it
 * goes. Nothing to undo: every form means the same address.
 */
export class CanonicalResolverAddresses1764950000001 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const rows = (await queryRunner.query(
      'SELECT id, ip_address AS address FROM federation_resolver ORDER BY id',
    )) as { id: number | string; address: string }[];
    const byAddress = new Map(rows.map((row) => [row.address, Number(row.id)]));
    for (const row of rows) {
      const id = Number(row.id);
      const address = canonicalInet(row.address);
      if (address === row.address) {
        continue;
      }
      const kept = byAddress.get(address);
      if (kept === undefined) {
        await queryRunner.query('UPDATE federation_resolver SET ip_address = ? WHERE id = ?', [address, id]);
        byAddress.set(address, id);
        continue;
      }
      const federations = (await queryRunner.query(
        'SELECT federation FROM federation_federation_resolver WHERE federation_resolver = ? AND federation NOT IN ' +
          '(SELECT federation FROM federation_federation_resolver WHERE federation_resolver = ?)',
        [id, kept],
      )) as { federation: number | string }[];
      for (const { federation } of federations) {
        await queryRunner.query(
          'INSERT INTO federation_federation_resolver (federation, federation_resolver) VALUES (?, ?)',
          [federation, kept],
        );
      }
      await queryRunner.query('DELETE FROM federation_federation_resolver WHERE federation_resolver = ?', [
        id,
      ]);
      await queryRunner.query('DELETE FROM federation_resolver WHERE id = ?', [id]);
    }
  }

  public async down(): Promise<void> {
    // See above.
  }
}
