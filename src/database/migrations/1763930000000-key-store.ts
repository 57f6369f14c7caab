import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Roles that read delivery services' keys and their expirations, as the original's seeds give them. */
const KEY_READERS = ['operations', 'read-only', 'portal', 'steering', 'federation'];
const KEY_READ_PERMISSIONS = ['DS-SECURITY-KEY:READ', 'SSL-KEY-EXPIRATION:READ'];

/**
 * MySQL: the text columns take the database's default collation, the NO PAD binary one since
 * 1763830000000-exact-text-comparison (a new text column must never name `utf8mb4_bin`).
 */
const MYSQL_TABLE =
  'CREATE TABLE `key_store` (' +
  '`id` int NOT NULL AUTO_INCREMENT, ' +
  '`kind` varchar(16) NOT NULL, ' +
  '`owner` varchar(48) NOT NULL, ' +
  '`version` varchar(32) NOT NULL, ' +
  '`cdn` text NULL, ' +
  '`provider` text NULL, ' +
  '`expiration` datetime(6) NULL, ' +
  '`ciphertext` text NOT NULL, ' +
  '`iv` varchar(24) NOT NULL, ' +
  '`tag` varchar(24) NOT NULL, ' +
  '`last_updated` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), ' +
  'UNIQUE INDEX `uq_key_store__kind__owner__version` (`kind`, `owner`, `version`), ' +
  'INDEX `ix_key_store__last_updated` (`last_updated`), ' +
  'PRIMARY KEY (`id`)) ENGINE=InnoDB';

const SQLITE_TABLE =
  'CREATE TABLE "key_store" (' +
  '"id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, ' +
  '"kind" varchar(16) NOT NULL, ' +
  '"owner" varchar(48) NOT NULL, ' +
  '"version" varchar(32) NOT NULL, ' +
  '"cdn" text, ' +
  '"provider" text, ' +
  '"expiration" datetime, ' +
  '"ciphertext" text NOT NULL, ' +
  '"iv" varchar(24) NOT NULL, ' +
  '"tag" varchar(24) NOT NULL, ' +
  '"last_updated" datetime NOT NULL DEFAULT (CURRENT_TIMESTAMP), ' +
  'CONSTRAINT "uq_key_store__kind__owner__version" UNIQUE ("kind", "owner", "version"))';

/**
 * `key_store`: what the original keeps in Traffic Vault (docs/decisions.md#d65). One row per
 * delivery service's SSL keys version (and its `latest`), URL signing keys and URI signing keys;
 * the secret part encrypted with AES-256-GCM (`ciphertext`, `iv`, `tag`, base64). `cdn`, `provider`
 * and `expiration` are the clear metadata the CDN and expiration lists select by, as the original's
 * `sslkey` table has them. Rows are replaced (deleted and inserted), never updated.
 */
export class KeyStore1763930000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      await queryRunner.query(SQLITE_TABLE);
      await queryRunner.query('CREATE INDEX "ix_key_store__last_updated" ON "key_store" ("last_updated")');
    } else {
      await queryRunner.query(MYSQL_TABLE);
    }
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
    await queryRunner.query('DROP TABLE key_store');
  }
}
