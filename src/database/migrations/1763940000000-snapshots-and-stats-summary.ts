import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Read roles of the seed (by name) and the permissions they get here, as the original's seeds. */
const READERS = ['operations', 'read-only', 'portal', 'steering', 'federation'];
const READ_PERMISSIONS = ['CDN-SNAPSHOT:READ', 'MONITOR-CONFIG:READ', 'STAT:READ', 'STAT:CREATE'];
const OPERATIONS_PERMISSIONS = ['CDN-SNAPSHOT:CREATE'];

/**
 * `snapshot`: the last CRConfig and monitoring configuration taken of each CDN, keyed by the CDN's
 * name (the original's table; it follows the CDN's renames and goes away with it). The documents
 * are JSON text of any size: LONGTEXT on MySQL. The table has no entity: the snapshots module reads
 * and writes it with SQL (docs/decisions.md#d70).
 *
 * `stats_summary`: Traffic Stats' daily summaries (the original's table).
 */
export class SnapshotsAndStatsSummary1763940000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      await queryRunner.query(
        'CREATE TABLE "snapshot" ("cdn" varchar(255) PRIMARY KEY NOT NULL, "crconfig" text NOT NULL, ' +
          '"monitoring" text NOT NULL, "last_updated" datetime NOT NULL DEFAULT (CURRENT_TIMESTAMP), ' +
          'CONSTRAINT "fk_snapshot__cdn" FOREIGN KEY ("cdn") REFERENCES "cdn" ("name") ' +
          'ON DELETE CASCADE ON UPDATE CASCADE)',
      );
      await queryRunner.query(
        'CREATE TABLE "stats_summary" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, ' +
          '"cdn_name" varchar(255) NOT NULL, "deliveryservice_name" varchar(255) NOT NULL, ' +
          '"stat_name" varchar(255) NOT NULL, "stat_value" double NOT NULL, "summary_time" datetime NOT NULL, ' +
          '"stat_date" date)',
      );
    } else {
      // No collation named: text columns take the database's exact (NO PAD binary) one, as cdn.name has
      // (migration 1763830000000), which the foreign key needs.
      await queryRunner.query(
        `CREATE TABLE \`snapshot\` (\`cdn\` varchar(255) NOT NULL, \`crconfig\` longtext NOT NULL, ` +
          `\`monitoring\` longtext NOT NULL, ` +
          '`last_updated` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), PRIMARY KEY (`cdn`), ' +
          'CONSTRAINT `fk_snapshot__cdn` FOREIGN KEY (`cdn`) REFERENCES `cdn` (`name`) ' +
          'ON DELETE CASCADE ON UPDATE CASCADE) ENGINE=InnoDB',
      );
      await queryRunner.query(
        `CREATE TABLE \`stats_summary\` (\`id\` int NOT NULL AUTO_INCREMENT, \`cdn_name\` varchar(255) NOT NULL, ` +
          `\`deliveryservice_name\` varchar(255) NOT NULL, \`stat_name\` varchar(255) NOT NULL, ` +
          '`stat_value` double NOT NULL, `summary_time` datetime(6) NOT NULL, `stat_date` date NULL, ' +
          'PRIMARY KEY (`id`)) ENGINE=InnoDB',
      );
    }
    const grant = async (roles: string[], permissions: string[]) => {
      for (const permission of permissions) {
        await queryRunner.query(
          `INSERT INTO role_capability (role_id, cap_name) SELECT r.id, ? FROM role r WHERE r.name IN (${roles
            .map(() => '?')
            .join(
              ', ',
            )}) AND NOT EXISTS (SELECT 1 FROM role_capability rc WHERE rc.role_id = r.id AND rc.cap_name = ?)`,
          [permission, ...roles, permission],
        );
      }
    };
    await grant(READERS, READ_PERMISSIONS);
    await grant(['operations'], OPERATIONS_PERMISSIONS);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM role_capability WHERE cap_name IN (${[...READ_PERMISSIONS, ...OPERATIONS_PERMISSIONS]
        .map(() => '?')
        .join(
          ', ',
        )}) AND role_id IN (SELECT id FROM role WHERE name IN (${READERS.map(() => '?').join(', ')}))`,
      [...READ_PERMISSIONS, ...OPERATIONS_PERMISSIONS, ...READERS],
    );
    await queryRunner.query('DROP TABLE `stats_summary`'.replace(/`/g, quote(queryRunner)));
    await queryRunner.query('DROP TABLE `snapshot`'.replace(/`/g, quote(queryRunner)));
  }
}

function quote(queryRunner: QueryRunner): string {
  return queryRunner.connection.options.type === 'better-sqlite3' ? '"' : '`';
}
