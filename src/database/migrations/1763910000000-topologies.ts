import { Table, TableForeignKey, type QueryRunner, type MigrationInterface } from 'typeorm';

interface ForeignKey {
  table: string;
  column: string;
  references: string;
  referencedColumn: string;
  onDelete: 'RESTRICT' | 'CASCADE';
  onUpdate: 'CASCADE' | 'NO ACTION';
}

const KEYS: Record<string, ForeignKey> = {
  topology: {
    table: 'topology_cachegroup',
    column: 'topology',
    references: 'topology',
    referencedColumn: 'name',
    onDelete: 'CASCADE',
    onUpdate: 'CASCADE',
  },
  cachegroup: {
    table: 'topology_cachegroup',
    column: 'cachegroup',
    references: 'cachegroup',
    referencedColumn: 'name',
    onDelete: 'RESTRICT',
    onUpdate: 'CASCADE',
  },
  child: {
    table: 'topology_cachegroup_parents',
    column: 'child',
    references: 'topology_cachegroup',
    referencedColumn: 'id',
    onDelete: 'CASCADE',
    onUpdate: 'NO ACTION',
  },
  parent: {
    table: 'topology_cachegroup_parents',
    column: 'parent',
    references: 'topology_cachegroup',
    referencedColumn: 'id',
    onDelete: 'CASCADE',
    onUpdate: 'NO ACTION',
  },
  deliveryservice: {
    table: 'deliveryservice',
    column: 'topology',
    references: 'topology',
    referencedColumn: 'name',
    onDelete: 'RESTRICT',
    onUpdate: 'CASCADE',
  },
};

const SERVER_FLAGS = ['config_update_failed', 'revalidate_update_failed'];

const isSqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

const fkName = (fk: ForeignKey): string => `fk_${fk.table}__${fk.column}`;

const foreignKey = (fk: ForeignKey): TableForeignKey =>
  new TableForeignKey({
    name: fkName(fk),
    columnNames: [fk.column],
    referencedTableName: fk.references,
    referencedColumnNames: [fk.referencedColumn],
    onDelete: fk.onDelete,
    onUpdate: fk.onUpdate,
  });

/**
 * Topologies (docs/original-behaviour.md#topologies): `topology` (named by its primary key),
 * its nodes `topology_cachegroup` (a cache group by name, once per topology) and their parents
 * `topology_cachegroup_parents` (rank 1 the primary, 2 the secondary), as the original's schema has
 * them; the delivery service's `topology` becomes a foreign key (renames follow, deleting a
 * topology in use is refused); servers get the original's `config_update_failed` and
 * `revalidate_update_failed` flags. The `TOPOLOGY:*` permissions go to the seeded roles.
 *
 * Names reference names as in the original, so a cache group or topology rename cascades. MySQL
 * text columns take the database's default collation (the NO PAD binary one since 1763830000000).
 * On SQLite every foreign key also gets the triggers that word its failures the way db-error.ts
 * reads them, and adding the delivery service's key rebuilds that table (SQLite cannot add a key
 * to an existing table), keeping its triggers.
 */
export class Topologies1763910000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = isSqlite(queryRunner);
    const lastUpdated = sqlite
      ? { name: 'last_updated', type: 'datetime', default: 'CURRENT_TIMESTAMP' }
      : {
          name: 'last_updated',
          type: 'datetime',
          precision: 6,
          default: 'CURRENT_TIMESTAMP(6)',
          onUpdate: 'CURRENT_TIMESTAMP(6)',
        };
    await queryRunner.createTable(
      new Table({
        name: 'topology',
        columns: [
          { name: 'name', type: 'varchar', length: '255', isPrimary: true },
          { name: 'description', type: 'text' },
          lastUpdated,
        ],
        indices: [{ name: 'ix_topology__last_updated', columnNames: ['last_updated'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'topology_cachegroup',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'topology', type: 'varchar', length: '255' },
          { name: 'cachegroup', type: 'varchar', length: '255' },
          lastUpdated,
        ],
        uniques: [
          { name: 'uq_topology_cachegroup__topology__cachegroup', columnNames: ['topology', 'cachegroup'] },
        ],
        indices: [{ name: 'ix_topology_cachegroup__cachegroup', columnNames: ['cachegroup'] }],
        foreignKeys: [foreignKey(KEYS.topology), foreignKey(KEYS.cachegroup)],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'topology_cachegroup_parents',
        columns: [
          { name: 'child', type: 'integer', isPrimary: true },
          { name: 'parent', type: 'integer', isPrimary: true },
          { name: 'rank', type: 'integer' },
          lastUpdated,
        ],
        uniques: [{ name: 'uq_topology_cachegroup_parents__child__rank', columnNames: ['child', 'rank'] }],
        indices: [{ name: 'ix_topology_cachegroup_parents__parent', columnNames: ['parent'] }],
        foreignKeys: [foreignKey(KEYS.child), foreignKey(KEYS.parent)],
      }),
    );
    if (sqlite) {
      await rebuildKeepingTriggers(queryRunner, () =>
        queryRunner.createForeignKey('deliveryservice', foreignKey(KEYS.deliveryservice)),
      );
      for (const fk of Object.values(KEYS)) {
        await createSqliteTriggers(queryRunner, fk);
      }
    } else {
      await queryRunner.createForeignKey('deliveryservice', foreignKey(KEYS.deliveryservice));
    }
    await createTouchedTrigger(queryRunner);
    await queryRunner.query(
      sqlite
        ? `CREATE TRIGGER "trg_topology_deleted" AFTER DELETE ON "topology" BEGIN ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('topology', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
            'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END'
        : 'CREATE TRIGGER `trg_topology_deleted` AFTER DELETE ON `topology` FOR EACH ROW ' +
            "INSERT INTO last_deleted (table_name, last_updated) VALUES ('topology', CURRENT_TIMESTAMP(6)) " +
            'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
    );
    for (const column of SERVER_FLAGS) {
      await queryRunner.query(
        sqlite
          ? `ALTER TABLE "server" ADD COLUMN "${column}" boolean NOT NULL DEFAULT false`
          : `ALTER TABLE \`server\` ADD COLUMN \`${column}\` tinyint(1) NOT NULL DEFAULT 0`,
      );
    }
    await grantPermissions(queryRunner, sqlite);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const sqlite = isSqlite(queryRunner);
    await queryRunner.query(
      `DELETE FROM role_capability WHERE cap_name IN (${PERMISSIONS.map(() => '?').join(', ')})`,
      PERMISSIONS,
    );
    for (const column of SERVER_FLAGS) {
      await queryRunner.query(
        sqlite
          ? `ALTER TABLE "server" DROP COLUMN "${column}"`
          : `ALTER TABLE \`server\` DROP COLUMN \`${column}\``,
      );
    }
    if (sqlite) {
      for (const fk of Object.values(KEYS)) {
        for (const suffix of ['insert', 'update', 'restrict']) {
          await queryRunner.query(`DROP TRIGGER IF EXISTS "${fkName(fk)}_${suffix}"`);
        }
      }
      await rebuildKeepingTriggers(queryRunner, () =>
        queryRunner.dropForeignKey('deliveryservice', fkName(KEYS.deliveryservice)),
      );
    } else {
      await queryRunner.dropForeignKey('deliveryservice', fkName(KEYS.deliveryservice));
      await queryRunner.query(`DROP INDEX \`${fkName(KEYS.deliveryservice)}\` ON \`deliveryservice\``);
    }
    await queryRunner.query(
      sqlite
        ? 'DROP TRIGGER IF EXISTS "trg_topology_touched"'
        : 'DROP TRIGGER IF EXISTS `trg_topology_touched`',
    );
    await queryRunner.query(
      sqlite
        ? 'DROP TRIGGER IF EXISTS "trg_topology_deleted"'
        : 'DROP TRIGGER IF EXISTS `trg_topology_deleted`',
    );
    await queryRunner.dropTable('topology_cachegroup_parents');
    await queryRunner.dropTable('topology_cachegroup');
    await queryRunner.dropTable('topology');
    await queryRunner.query("DELETE FROM last_deleted WHERE table_name = 'topology'");
  }
}

/**
 * Runs a change that makes TypeORM rebuild `table` on SQLite (copy, drop, rename). Every trigger is
 * set aside meanwhile and re-created after: dropping the table removes its own, and SQLite refuses
 * the rename while a trigger of another table names the dropped one.
 */
async function rebuildKeepingTriggers(queryRunner: QueryRunner, change: () => Promise<void>): Promise<void> {
  const triggers = (await queryRunner.query(
    `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`,
  )) as { name: string; sql: string }[];
  for (const { name } of triggers) {
    await queryRunner.query(`DROP TRIGGER "${name}"`);
  }
  await change();
  for (const { sql } of triggers) {
    await queryRunner.query(sql);
  }
}

/** SQLite: the insert/update triggers of a foreign key and, for a RESTRICT one, its parent's delete trigger. */
async function createSqliteTriggers(queryRunner: QueryRunner, fk: ForeignKey): Promise<void> {
  const name = fkName(fk);
  const label = `${fk.table}.${fk.column} -> ${fk.references}`;
  const missing =
    `NEW."${fk.column}" IS NOT NULL AND NOT EXISTS ` +
    `(SELECT 1 FROM "${fk.references}" WHERE "${fk.referencedColumn}" = NEW."${fk.column}")`;
  await queryRunner.query(
    `CREATE TRIGGER "${name}_insert" BEFORE INSERT ON "${fk.table}" WHEN ${missing} ` +
      `BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY missing ${label}'); END`,
  );
  await queryRunner.query(
    `CREATE TRIGGER "${name}_update" BEFORE UPDATE OF "${fk.column}" ON "${fk.table}" WHEN ${missing} ` +
      `BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY missing ${label}'); END`,
  );
  if (fk.onDelete === 'RESTRICT') {
    await queryRunner.query(
      `CREATE TRIGGER "${name}_restrict" BEFORE DELETE ON "${fk.references}" ` +
        `WHEN EXISTS (SELECT 1 FROM "${fk.table}" WHERE "${fk.column}" = OLD."${fk.referencedColumn}") ` +
        `BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY restrict ${label}'); END`,
    );
  }
}

/** `last_updated` moves forward by at least a millisecond on every update (as 1763850000000 does for the other tables). */
async function createTouchedTrigger(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(
    isSqlite(queryRunner)
      ? `CREATE TRIGGER "trg_topology_touched" AFTER UPDATE ON "topology" FOR EACH ROW BEGIN ` +
          `UPDATE "topology" SET last_updated = max(strftime('%Y-%m-%d %H:%M:%f', 'now'), ` +
          `coalesce(strftime('%Y-%m-%d %H:%M:%f', OLD.last_updated, '+0.001 seconds'), '')) ` +
          'WHERE rowid = NEW.rowid; END'
      : 'CREATE TRIGGER `trg_topology_touched` BEFORE UPDATE ON `topology` FOR EACH ROW ' +
          'SET NEW.last_updated = GREATEST(CURRENT_TIMESTAMP(6), ' +
          'OLD.last_updated + INTERVAL 1000 MICROSECOND)',
  );
}

const PERMISSIONS = ['TOPOLOGY:READ', 'TOPOLOGY:CREATE', 'TOPOLOGY:UPDATE', 'TOPOLOGY:DELETE'];

/** Read roles get TOPOLOGY:READ, `operations` every TOPOLOGY permission (`admin` holds ALL). */
async function grantPermissions(queryRunner: QueryRunner, sqlite: boolean): Promise<void> {
  const grants: [role: string, permissions: string[]][] = [
    ['operations', PERMISSIONS],
    ['read-only', ['TOPOLOGY:READ']],
    ['portal', ['TOPOLOGY:READ']],
    ['steering', ['TOPOLOGY:READ']],
    ['federation', ['TOPOLOGY:READ']],
  ];
  for (const [role, permissions] of grants) {
    for (const permission of permissions) {
      await queryRunner.query(
        (sqlite ? 'INSERT OR IGNORE' : 'INSERT IGNORE') +
          ' INTO role_capability (role_id, cap_name) SELECT id, ? FROM role WHERE name = ?',
        [permission, role],
      );
    }
  }
}
