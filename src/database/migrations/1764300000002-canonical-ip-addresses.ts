import type { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalInet } from './support/inet';

/**
 * Server interfaces' addresses and gateways in the canonical form the service writes since
 * (src/common/net/inet.ts, docs/decisions.md#d131): IPv6 as RFC 5952 text, no `/32` or `/128`. A row
 * whose canonical address its interface already has is the same address twice, and goes. Nothing to
 * undo: the forms as sent are not kept, and every form means the same address.
 */
export class CanonicalIpAddresses1764300000002 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const rows = (await queryRunner.query(
      'SELECT id, interface AS iface, address, gateway FROM ip_address ORDER BY id',
    )) as { id: number | string; iface: number | string; address: string; gateway: string | null }[];
    const taken = new Set(rows.map((r) => `${r.iface} ${r.address}`));
    for (const row of rows) {
      const address = canonicalInet(row.address);
      const gateway = row.gateway ? canonicalInet(row.gateway) : row.gateway;
      if (address === row.address && gateway === row.gateway) {
        continue;
      }
      if (address !== row.address && taken.has(`${row.iface} ${address}`)) {
        await queryRunner.query('DELETE FROM ip_address WHERE id = ?', [row.id]);
        continue;
      }
      taken.add(`${row.iface} ${address}`);
      await queryRunner.query('UPDATE ip_address SET address = ?, gateway = ? WHERE id = ?', [
        address,
        gateway,
        row.id,
      ]);
    }
  }

  public async down(): Promise<void> {
    // The forms as sent are not kept (see above).
  }
}
