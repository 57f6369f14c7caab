import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const sqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

const TABLE = 'staticdnsentry';

/** The entry's references: column, referenced table, ON DELETE rule (as the original's keys). */
const KEYS: [column: string, parent: string, onDelete: 'CASCADE' | 'RESTRICT'][] = [
  ['deliveryservice', 'deliveryservice', 'CASCADE'],
  ['cachegroup', 'cachegroup', 'RESTRICT'],
  ['type', 'type', 'RESTRICT'],
];

/** Permissions of the new routes, per seeded role (`admin` holds `ALL`). */
const GRANTS: Record<string, string[]> = {
  operations: ['STATIC-DN:READ', 'STATIC-DN:CREATE', 'STATIC-DN:UPDATE', 'STATIC-DN:DELETE'],
  'read-only': ['STATIC-DN:READ'],
  portal: ['STATIC-DN:READ'],
  steering: ['STATIC-DN:READ'],
  federation: ['STATIC-DN:READ'],
};

/**
 * `staticdnsentry` (docs/original-behaviour.md#static-dns-entries): a DNS record Traffic Router
 * answers under a delivery service's domain — host, address, record type (a `staticdnsentry` type),
 * TTL — and an optional cache group the original keeps for compatibility. Host, address, delivery
 * service and cache group are unique together (as the original's index: rows without a cache group
 * never collide). Deleting the delivery service deletes its entries; a cache group or type in use
 * cannot be deleted. The list answers If-Modified-Since, so deletions are tracked in `last_deleted`
 * (also those the delivery service's deletion cascades to on MySQL). The `*_RECORD` types are
 * already seeded (1763770000001).
 */
export class StaticDnsEntries1764042000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: TABLE,
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'host', type: 'varchar', length: '255' },
          { name: 'address', type: 'varchar', length: '255' },
          { name: 'type', type: 'integer' },
          { name: 'ttl', type: 'bigint', default: 3600 },
          { name: 'deliveryservice', type: 'integer' },
          { name: 'cachegroup', type: 'integer', isNullable: true },
          lite
            ? { name: 'last_updated', type: 'datetime', default: 'CURRENT_TIMESTAMP' }
            : {
                name: 'last_updated',
                type: 'datetime',
                precision: 6,
                default: 'CURRENT_TIMESTAMP(6)',
                onUpdate: 'CURRENT_TIMESTAMP(6)',
              },
        ],
        uniques: [
          {
            name: 'uq_staticdnsentry__host__address__deliveryservice__cachegroup',
            columnNames: ['host', 'address', 'deliveryservice', 'cachegroup'],
          },
        ],
        indices: [
          new TableIndex({ name: 'ix_staticdnsentry__deliveryservice', columnNames: ['deliveryservice'] }),
          new TableIndex({ name: 'ix_staticdnsentry__cachegroup', columnNames: ['cachegroup'] }),
          new TableIndex({ name: 'ix_staticdnsentry__type', columnNames: ['type'] }),
          new TableIndex({ name: 'ix_staticdnsentry__last_updated', columnNames: ['last_updated'] }),
        ],
        foreignKeys: KEYS.map(
          ([column, parent, onDelete]) =>
            new TableForeignKey({
              name: `fk_staticdnsentry__${column}`,
              columnNames: [column],
              referencedTableName: parent,
              referencedColumnNames: ['id'],
              onDelete,
              onUpdate: lite ? undefined : 'NO ACTION',
            }),
        ),
      }),
    );
    if (lite) {
      for (const [column, parent, onDelete] of KEYS) {
        const name = `fk_staticdnsentry__${column}`;
        const missing = `FOREIGN KEY missing staticdnsentry.${column} -> ${parent}`;
        const parentMissing = `NEW."${column}" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "${parent}" WHERE id = NEW."${column}")`;
        await queryRunner.query(
          `CREATE TRIGGER "${name}_insert" BEFORE INSERT ON "${TABLE}" WHEN ${parentMissing} ` +
            `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
        );
        await queryRunner.query(
          `CREATE TRIGGER "${name}_update" BEFORE UPDATE OF "${column}" ON "${TABLE}" WHEN ${parentMissing} ` +
            `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
        );
        if (onDelete === 'RESTRICT') {
          await queryRunner.query(
            `CREATE TRIGGER "${name}_restrict" BEFORE DELETE ON "${parent}" ` +
              `WHEN EXISTS (SELECT 1 FROM "${TABLE}" WHERE "${column}" = OLD.id) ` +
              `BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY restrict staticdnsentry.${column} -> ${parent}'); END`,
          );
        }
      }
    }
    await queryRunner.query(
      lite
        ? `CREATE TRIGGER "trg_staticdnsentry_deleted" AFTER DELETE ON "${TABLE}" BEGIN ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('${TABLE}', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
            'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END'
        : `CREATE TRIGGER \`trg_staticdnsentry_deleted\` AFTER DELETE ON \`${TABLE}\` FOR EACH ROW ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('${TABLE}', CURRENT_TIMESTAMP(6)) ` +
            'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
    );
    if (!lite) {
      // MySQL fires no trigger for the rows a cascade deletes: the delivery service's deletion records them.
      await queryRunner.query(
        'CREATE TRIGGER `trg_staticdnsentry__deliveryservice_cascade` BEFORE DELETE ON `deliveryservice` FOR EACH ROW ' +
          `INSERT INTO last_deleted (table_name, last_updated) SELECT '${TABLE}', CURRENT_TIMESTAMP(6) FROM DUAL ` +
          `WHERE EXISTS (SELECT 1 FROM \`${TABLE}\` WHERE \`deliveryservice\` = OLD.id) ` +
          'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
      );
    }
    for (const [role, permissions] of Object.entries(GRANTS)) {
      for (const permission of permissions) {
        await queryRunner.query(
          'INSERT INTO role_capability (role_id, cap_name) SELECT id, ? FROM role WHERE name = ?',
          [permission, role],
        );
      }
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    await queryRunner.query(`DELETE FROM role_capability WHERE cap_name LIKE 'STATIC-DN:%'`);
    await queryRunner.query('DROP TRIGGER IF EXISTS trg_staticdnsentry_deleted');
    if (!lite) {
      await queryRunner.query('DROP TRIGGER IF EXISTS trg_staticdnsentry__deliveryservice_cascade');
    }
    await queryRunner.query('DELETE FROM last_deleted WHERE table_name = ?', [TABLE]);
    if (lite) {
      for (const [column] of KEYS) {
        for (const suffix of ['insert', 'update', 'restrict']) {
          await queryRunner.query(`DROP TRIGGER IF EXISTS "fk_staticdnsentry__${column}_${suffix}"`);
        }
      }
    }
    await queryRunner.dropTable(TABLE);
  }
}
