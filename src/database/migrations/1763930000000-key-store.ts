import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, dropTable, idColumn, lastUpdatedColumn, timestampColumn } from './support/schema-v1';

/** Roles that read delivery services' keys and their expirations, as the original's seeds give them. */
const KEY_READERS = ['operations', 'read-only', 'portal', 'steering', 'federation'];
const KEY_READ_PERMISSIONS = ['DS-SECURITY-KEY:READ', 'SSL-KEY-EXPIRATION:READ'];

/**
 * `key_store`: what the original keeps in Traffic Vault (docs/decisions.md#d65). One row per
 * delivery service's SSL keys version (and its `latest`), URL signing keys and URI signing keys;
 * the secret part encrypted with AES-256-GCM (`ciphertext`, `iv`, `tag`, base64). `cdn`, `provider`
 * and `expiration` are the clear metadata the CDN and expiration lists select by, as the original's
 * `sslkey` table has them.
 */
export class KeyStore1763930000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(queryRunner, {
      name: 'key_store',
      columns: [
        idColumn(),
        { name: 'kind', type: 'varchar', length: '16' },
        { name: 'owner', type: 'varchar', length: '48' },
        { name: 'version', type: 'varchar', length: '32' },
        { name: 'cdn', type: 'varchar', length: '1024', isNullable: true },
        { name: 'provider', type: 'varchar', length: '1024', isNullable: true },
        timestampColumn(queryRunner, 'expiration'),
        { name: 'ciphertext', type: 'text' },
        { name: 'iv', type: 'varchar', length: '24' },
        { name: 'tag', type: 'varchar', length: '24' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['kind', 'owner', 'version']],
      indices: [['last_updated']],
    });
    for (const role of KEY_READERS) {
      for (const permission of KEY_READ_PERMISSIONS) {
        await queryRunner.query(
          'INSERT INTO role_capability (role_id, cap_name) SELECT id, ? FROM role WHERE name = ?',
          [permission, role],
        );
      }
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const role of KEY_READERS) {
      for (const permission of KEY_READ_PERMISSIONS) {
        await queryRunner.query(
          'DELETE FROM role_capability WHERE cap_name = ? AND role_id IN (SELECT id FROM role WHERE name = ?)',
          [permission, role],
        );
      }
    }
    await dropTable(queryRunner, 'key_store');
  }
}
