import { TableForeignKey, type MigrationInterface, type QueryRunner } from 'typeorm';

const NAME = 'fk_deliveryservice__service_category';
const LABEL = 'deliveryservice.service_category -> service_category';

const isSqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

const foreignKey = (): TableForeignKey =>
  new TableForeignKey({
    name: NAME,
    columnNames: ['service_category'],
    referencedTableName: 'service_category',
    referencedColumnNames: ['name'],
    onDelete: 'RESTRICT',
    onUpdate: 'CASCADE',
  });

/**
 * A delivery service's `service_category` becomes a foreign key to the category's name, as the
 * original's (docs/decisions.md#d80): renaming a category renames it in the delivery services, and
 * deleting one in use is refused. Names no category may name are cleared first (none could be
 * written before). On SQLite the key rebuilds the table (SQLite cannot add a key to an existing
 * table), keeping every trigger, and gets the triggers that word its failures as db-error.ts reads
 * them. On MySQL/MariaDB the category's name, created `utf8mb4_bin`, takes the database's (NO PAD)
 * collation of the delivery service's column first: a key joins text columns of one collation only.
 */
export class DeliveryserviceServiceCategoryKey1763990000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    if (!isSqlite(queryRunner)) {
      await setCategoryCollation(queryRunner, await databaseCollation(queryRunner));
    }
    await queryRunner.query(
      'UPDATE deliveryservice SET service_category = NULL WHERE service_category IS NOT NULL ' +
        'AND service_category NOT IN (SELECT name FROM service_category)',
    );
    if (isSqlite(queryRunner)) {
      await rebuildKeepingTriggers(queryRunner, () =>
        queryRunner.createForeignKey('deliveryservice', foreignKey()),
      );
      await createSqliteTriggers(queryRunner);
    } else {
      await queryRunner.createForeignKey('deliveryservice', foreignKey());
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (isSqlite(queryRunner)) {
      for (const suffix of ['insert', 'update', 'restrict']) {
        await queryRunner.query(`DROP TRIGGER IF EXISTS "${NAME}_${suffix}"`);
      }
      await rebuildKeepingTriggers(queryRunner, () => queryRunner.dropForeignKey('deliveryservice', NAME));
    } else {
      await queryRunner.dropForeignKey('deliveryservice', NAME);
      await queryRunner.query(`DROP INDEX \`${NAME}\` ON \`deliveryservice\``);
    }
  }
}

async function databaseCollation(queryRunner: QueryRunner): Promise<string> {
  const [row] = (await queryRunner.query('SELECT @@collation_database AS c')) as { c: string }[];
  return row.c;
}

async function setCategoryCollation(queryRunner: QueryRunner, collation: string): Promise<void> {
  await queryRunner.query(
    'ALTER TABLE `service_category` MODIFY `name` varchar(255) ' +
      `CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`,
  );
}

/**
 * Runs a change that makes TypeORM rebuild the table on SQLite (copy, drop, rename). Every trigger
 * is set aside meanwhile and re-created after: dropping the table removes its own, and SQLite
 * refuses the rename while a trigger of another table names the dropped one.
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

/** SQLite: the key's insert and update triggers, and the category's delete trigger (RESTRICT). */
async function createSqliteTriggers(queryRunner: QueryRunner): Promise<void> {
  const missing =
    'NEW."service_category" IS NOT NULL AND NOT EXISTS ' +
    '(SELECT 1 FROM "service_category" WHERE "name" = NEW."service_category")';
  await queryRunner.query(
    `CREATE TRIGGER "${NAME}_insert" BEFORE INSERT ON "deliveryservice" WHEN ${missing} ` +
      `BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY missing ${LABEL}'); END`,
  );
  await queryRunner.query(
    `CREATE TRIGGER "${NAME}_update" BEFORE UPDATE OF "service_category" ON "deliveryservice" WHEN ${missing} ` +
      `BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY missing ${LABEL}'); END`,
  );
  await queryRunner.query(
    `CREATE TRIGGER "${NAME}_restrict" BEFORE DELETE ON "service_category" ` +
      'WHEN EXISTS (SELECT 1 FROM "deliveryservice" WHERE "service_category" = OLD."name") ' +
      `BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY restrict ${LABEL}'); END`,
  );
}
