import {
  Table,
  TableForeignKey,
  TableIndex,
  type MigrationInterface,
  type QueryRunner,
  type TableColumnOptions,
} from 'typeorm';

const sqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

/** Permissions of the new routes, per seeded role, as the original seeds them (`admin` holds `ALL`). */
const READERS = ['operations', 'read-only', 'portal', 'steering', 'federation'];
const GRANTS = ['ASYNC-STATUS:READ', 'CDNI-ADMIN:READ', 'CDNI-CAPACITY:READ'];

interface ForeignKey {
  column: string;
  references: string;
  referencedColumn: string;
}

function id(): TableColumnOptions {
  return { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
}

/** A text column; on MySQL it takes the table's NO PAD binary collation (docs/decisions.md#d29). */
function text(name: string, isNullable = false): TableColumnOptions {
  return { name, type: 'text', isNullable };
}

/** A text key (a primary key or a column referring to one): VARCHAR(255), as MySQL indexes no TEXT. */
function key(name: string, isPrimary = false): TableColumnOptions {
  return { name, type: 'varchar', length: '255', isPrimary };
}

function bigint(name: string): TableColumnOptions {
  return { name, type: 'bigint' };
}

function datetime(lite: boolean, name: string, now: boolean): TableColumnOptions {
  if (!now) {
    return lite
      ? { name, type: 'datetime', isNullable: true }
      : { name, type: 'datetime', precision: 6, isNullable: true };
  }
  return lite
    ? { name, type: 'datetime', default: 'CURRENT_TIMESTAMP' }
    : { name, type: 'datetime', precision: 6, default: 'CURRENT_TIMESTAMP(6)' };
}

function lastUpdated(lite: boolean): TableColumnOptions {
  return lite
    ? { name: 'last_updated', type: 'datetime', default: 'CURRENT_TIMESTAMP' }
    : {
        name: 'last_updated',
        type: 'datetime',
        precision: 6,
        default: 'CURRENT_TIMESTAMP(6)',
        onUpdate: 'CURRENT_TIMESTAMP(6)',
      };
}

/**
 * A table whose foreign keys cascade on delete, as the original's, named `fk_<table>__<column>` and
 * indexed `ix_<table>__<column>`; on SQLite each key also gets the triggers that word a missing
 * parent as the error classifier expects.
 */
async function createTable(
  queryRunner: QueryRunner,
  name: string,
  columns: TableColumnOptions[],
  foreignKeys: ForeignKey[],
): Promise<void> {
  const lite = sqlite(queryRunner);
  await queryRunner.createTable(
    new Table({
      name,
      columns,
      indices: foreignKeys.map(
        (fk) => new TableIndex({ name: `ix_${name}__${fk.column}`, columnNames: [fk.column] }),
      ),
      foreignKeys: foreignKeys.map(
        (fk) =>
          new TableForeignKey({
            name: `fk_${name}__${fk.column}`,
            columnNames: [fk.column],
            referencedTableName: fk.references,
            referencedColumnNames: [fk.referencedColumn],
            onDelete: 'CASCADE',
            ...(lite ? {} : { onUpdate: 'NO ACTION' }),
          }),
      ),
    }),
  );
  if (!lite) {
    return;
  }
  for (const fk of foreignKeys) {
    const trigger = `fk_${name}__${fk.column}`;
    const message = `FOREIGN KEY missing ${name}.${fk.column} -> ${fk.references}`;
    const missing =
      `NEW."${fk.column}" IS NOT NULL AND NOT EXISTS ` +
      `(SELECT 1 FROM "${fk.references}" WHERE "${fk.referencedColumn}" = NEW."${fk.column}")`;
    await queryRunner.query(
      `CREATE TRIGGER "${trigger}_insert" BEFORE INSERT ON "${name}" WHEN ${missing} ` +
        `BEGIN SELECT RAISE(ABORT, '${message}'); END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "${trigger}_update" BEFORE UPDATE OF "${fk.column}" ON "${name}" WHEN ${missing} ` +
        `BEGIN SELECT RAISE(ABORT, '${message}'); END`,
    );
  }
}

const capability: ForeignKey = {
  column: 'capability_id',
  references: 'cdni_capabilities',
  referencedColumn: 'id',
};
const telemetry: ForeignKey = {
  column: 'telemetry_id',
  references: 'cdni_telemetry',
  referencedColumn: 'id',
};

/**
 * CDN interconnection (docs/original-behaviour.md#cdni): the original's `cdni_*` tables and
 * `async_status`. The original's `text[]` columns (`footprint_value`, `scope_value`) hold a JSON
 * array of strings here; `data` holds the JSON a uCDN sent. The operators fill the capability
 * tables (the API only reads them and, on an approved request, changes a limit's `maximum_hard`).
 */
export class Cdni1764050000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    await createTable(
      queryRunner,
      'async_status',
      [
        id(),
        text('status'),
        text('message', true),
        datetime(lite, 'start_time', true),
        datetime(lite, 'end_time', false),
      ],
      [],
    );
    await createTable(
      queryRunner,
      'cdni_capabilities',
      [id(), text('type'), text('ucdn'), lastUpdated(lite)],
      [],
    );
    await createTable(
      queryRunner,
      'cdni_footprints',
      [
        id(),
        text('footprint_type'),
        text('footprint_value'),
        text('ucdn'),
        { name: 'capability_id', type: 'integer' },
        lastUpdated(lite),
      ],
      [capability],
    );
    await createTable(
      queryRunner,
      'cdni_telemetry',
      [
        key('id', true),
        text('type'),
        { name: 'capability_id', type: 'integer' },
        lastUpdated(lite),
        { name: 'configuration_url', type: 'varchar', length: '1024', default: "''" },
      ],
      [capability],
    );
    await createTable(
      queryRunner,
      'cdni_telemetry_metrics',
      [
        key('name', true),
        bigint('time_granularity'),
        bigint('data_percentile'),
        { name: 'latency', type: 'integer' },
        key('telemetry_id'),
        lastUpdated(lite),
      ],
      [telemetry],
    );
    await createTable(
      queryRunner,
      'cdni_limits',
      [
        id(),
        text('limit_id'),
        text('scope_type', true),
        text('scope_value', true),
        text('limit_type'),
        bigint('maximum_hard'),
        bigint('maximum_soft'),
        key('telemetry_id'),
        text('telemetry_metric'),
        { name: 'capability_id', type: 'integer' },
        lastUpdated(lite),
      ],
      [telemetry, capability],
    );
    await createTable(
      queryRunner,
      'cdni_capability_updates',
      [
        id(),
        text('request_type'),
        text('ucdn'),
        text('host', true),
        text('data'),
        { name: 'async_status_id', type: 'integer' },
        lastUpdated(lite),
      ],
      [{ column: 'async_status_id', references: 'async_status', referencedColumn: 'id' }],
    );
    for (const role of READERS) {
      for (const permission of GRANTS) {
        await queryRunner.query(
          'INSERT INTO role_capability (role_id, cap_name) SELECT id, ? FROM role WHERE name = ?',
          [permission, role],
        );
      }
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const permission of GRANTS) {
      await queryRunner.query('DELETE FROM role_capability WHERE cap_name = ?', [permission]);
    }
    for (const table of [
      'cdni_capability_updates',
      'cdni_limits',
      'cdni_telemetry_metrics',
      'cdni_telemetry',
      'cdni_footprints',
      'cdni_capabilities',
      'async_status',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
