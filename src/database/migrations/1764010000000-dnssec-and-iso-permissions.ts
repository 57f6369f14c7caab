import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The permissions of the DNSSEC key routes and of `osversions`, given to the seeded roles as the
 * original's seeds give them: `operations` reads, refreshes and deletes DNSSEC keys (creating them is
 * the admin's), and every reading role reads the ISO OS versions. DNSSEC keys themselves are rows of
 * `key_store` (docs/decisions.md#d110); no table changes.
 */
const GRANTS: [role: string, permission: string][] = [
  ['operations', 'DNS-SEC:READ'],
  ['operations', 'DNS-SEC:UPDATE'],
  ['operations', 'DNS-SEC:DELETE'],
  ...['operations', 'read-only', 'portal', 'steering', 'federation'].map((role): [string, string] => [
    role,
    'ISO:READ',
  ]),
];

export class DnssecAndIsoPermissions1764010000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [role, permission] of GRANTS) {
      await queryRunner.query(
        'INSERT INTO role_capability (role_id, cap_name) SELECT id, ? FROM role WHERE name = ?',
        [permission, role],
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [role, permission] of GRANTS) {
      await queryRunner.query(
        'DELETE FROM role_capability WHERE cap_name = ? AND role_id IN (SELECT id FROM role WHERE name = ?)',
        [permission, role],
      );
    }
  }
}
