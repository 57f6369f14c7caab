import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const sqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

/** The origin's references the original has and this schema lacked: column, referenced table. */
const REFERENCES: [column: string, parent: string][] = [
  ['cachegroup', 'cachegroup'],
  ['coordinate', 'coordinate'],
  ['profile', 'profile'],
];

/** Permissions of the new routes, per seeded role (`admin` holds `ALL`). */
const GRANTS: Record<string, string[]> = {
  operations: ['ORIGIN:READ', 'ORIGIN:CREATE', 'ORIGIN:UPDATE', 'ORIGIN:DELETE'],
  'read-only': ['ORIGIN:READ'],
  portal: ['ORIGIN:READ'],
  steering: ['ORIGIN:READ'],
  federation: ['ORIGIN:READ'],
};

/**
 * `origin` gets the original's remaining columns (docs/original-behaviour.md#origins): IPv4 and IPv6
 * addresses, and optional references to a cache group, a coordinate and a profile (ON DELETE
 * RESTRICT, as the original's); its list answers If-Modified-Since, so its deletions are tracked in
 * `last_deleted` and `last_updated` is indexed.
 *
 * On SQLite, adding a foreign key rebuilds the table, which drops the triggers on it: they are read
 * first and created again afterwards. The new keys get the triggers that word their violations
 * (`FOREIGN KEY missing origin.<column> -> <table>`, `FOREIGN KEY restrict …`) as the earlier tables'.
 */
export class OriginReferences1763960000002 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    const saved = lite ? await dropOriginTriggers(queryRunner) : [];
    const text = (name: string) =>
      new TableColumn(
        lite
          ? { name, type: 'varchar', length: '64', isNullable: true }
          : {
              name,
              type: 'varchar',
              length: '64',
              isNullable: true,
            },
      );
    await queryRunner.addColumns('origin', [
      text('ip_address'),
      text('ip6_address'),
      ...REFERENCES.map(([column]) => new TableColumn({ name: column, type: 'integer', isNullable: true })),
    ]);
    await queryRunner.createForeignKeys(
      'origin',
      REFERENCES.map(
        ([column, parent]) =>
          new TableForeignKey({
            name: `fk_origin__${column}`,
            columnNames: [column],
            referencedTableName: parent,
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
            onUpdate: lite ? undefined : 'NO ACTION',
          }),
      ),
    );
    await queryRunner.createIndex(
      'origin',
      new TableIndex({ name: 'ix_origin__last_updated', columnNames: ['last_updated'] }),
    );
    if (lite) {
      for (const { sql } of saved) {
        await queryRunner.query(sql);
      }
      for (const [column, parent] of REFERENCES) {
        const name = `fk_origin__${column}`;
        const missing = `FOREIGN KEY missing origin.${column} -> ${parent}`;
        const parentMissing = `NEW."${column}" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "${parent}" WHERE id = NEW."${column}")`;
        await queryRunner.query(
          `CREATE TRIGGER "${name}_insert" BEFORE INSERT ON "origin" WHEN ${parentMissing} ` +
            `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
        );
        await queryRunner.query(
          `CREATE TRIGGER "${name}_update" BEFORE UPDATE OF "${column}" ON "origin" WHEN ${parentMissing} ` +
            `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
        );
        await queryRunner.query(
          `CREATE TRIGGER "${name}_restrict" BEFORE DELETE ON "${parent}" ` +
            `WHEN EXISTS (SELECT 1 FROM "origin" WHERE "${column}" = OLD.id) ` +
            `BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY restrict origin.${column} -> ${parent}'); END`,
        );
      }
    }
    await queryRunner.query(
      lite
        ? `CREATE TRIGGER "trg_origin_deleted" AFTER DELETE ON "origin" BEGIN ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('origin', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
            'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END'
        : 'CREATE TRIGGER `trg_origin_deleted` AFTER DELETE ON `origin` FOR EACH ROW ' +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('origin', CURRENT_TIMESTAMP(6)) ` +
            'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
    );
    if (!lite) {
      // Deleting a delivery service cascades to its origins, which MySQL's triggers do not see.
      await queryRunner.query(
        'CREATE TRIGGER `trg_origin__deliveryservice_cascade` BEFORE DELETE ON `deliveryservice` FOR EACH ROW ' +
          `INSERT INTO last_deleted (table_name, last_updated) SELECT 'origin', CURRENT_TIMESTAMP(6) FROM DUAL ` +
          'WHERE EXISTS (SELECT 1 FROM `origin` WHERE `deliveryservice` = OLD.id) ' +
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
    await queryRunner.query(`DELETE FROM role_capability WHERE cap_name LIKE 'ORIGIN:%'`);
    await queryRunner.query('DROP TRIGGER IF EXISTS trg_origin_deleted');
    if (!lite) {
      await queryRunner.query('DROP TRIGGER IF EXISTS trg_origin__deliveryservice_cascade');
    }
    await queryRunner.query(`DELETE FROM last_deleted WHERE table_name = 'origin'`);
    if (lite) {
      for (const [column] of REFERENCES) {
        for (const suffix of ['insert', 'update', 'restrict']) {
          await queryRunner.query(`DROP TRIGGER IF EXISTS "fk_origin__${column}_${suffix}"`);
        }
      }
    }
    const saved = lite ? await dropOriginTriggers(queryRunner) : [];
    await queryRunner.dropIndex('origin', 'ix_origin__last_updated');
    for (const [column] of REFERENCES) {
      await queryRunner.dropForeignKey('origin', `fk_origin__${column}`);
    }
    await queryRunner.dropColumns('origin', ['ip_address', 'ip6_address', ...REFERENCES.map(([c]) => c)]);
    for (const { sql } of saved) {
      await queryRunner.query(sql);
    }
  }
}

/**
 * SQLite: drops every trigger on `origin` or naming it (the restrict triggers on its parents), which
 * a rebuild of the table would break, and answers their SQL to create them again afterwards.
 */
async function dropOriginTriggers(queryRunner: QueryRunner): Promise<{ sql: string }[]> {
  const triggers = (await queryRunner.query(
    `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND (tbl_name = 'origin' OR sql LIKE '%"origin"%')`,
  )) as { name: string; sql: string }[];
  for (const trigger of triggers) {
    await queryRunner.query(`DROP TRIGGER "${trigger.name}"`);
  }
  return triggers;
}
