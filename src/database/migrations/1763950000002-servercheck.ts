import {
  Table,
  TableForeignKey,
  TableIndex,
  TableUnique,
  type MigrationInterface,
  type QueryRunner,
  type TableColumnOptions,
} from 'typeorm';

const sqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

/** The check columns of `servercheck`, in the original's order. */
const CHECK_COLUMNS = [
  'aa',
  'ab',
  'ac',
  'ad',
  'ae',
  'af',
  'ag',
  'ah',
  'ai',
  'aj',
  'ak',
  'al',
  'am',
  'an',
  'ao',
  'ap',
  'aq',
  'ar',
  'bf',
  'at',
  'au',
  'av',
  'aw',
  'ax',
  'ay',
  'az',
  'ba',
  'bb',
  'bc',
  'bd',
  'be',
];

/** The original's seeded extensions: id, name, short name, column, version, info URL, script, active, config, type. */
type Seed = [number, string, string, string, string, string, string, number, string, string];
const BOOL = 'CHECK_EXTENSION_BOOL';
const NUM = 'CHECK_EXTENSION_NUM';
const OPEN = 'CHECK_EXTENSION_OPEN_SLOT';
const SEEDS: Seed[] = [
  [
    1,
    'ILO_PING',
    'ILO',
    'aa',
    '1.0.0',
    '-',
    'ToPingCheck.pl',
    1,
    '{ check_name: "ILO", "base_url": "https://localhost", "select": "ilo_ip_address", "cron": "9 * * * *" }',
    BOOL,
  ],
  [
    2,
    '10G_PING',
    '10G',
    'ab',
    '1.0.0',
    '-',
    'ToPingCheck.pl',
    1,
    '{ check_name: "10G", "base_url": "https://localhost", "select": "ip_address", "cron": "18 * * * *" }',
    BOOL,
  ],
  [
    3,
    'FQDN_PING',
    'FQDN',
    'ac',
    '1.0.0',
    '-',
    'ToPingCheck.pl',
    1,
    '{ check_name: "FQDN", "base_url": "https://localhost", "select": "host_name", "cron": "27 * * * *" }',
    BOOL,
  ],
  [
    4,
    'CHECK_DSCP',
    'DSCP',
    'ad',
    '1.0.0',
    '-',
    'ToDSCPCheck.pl',
    1,
    '{ "check_name": "DSCP", "base_url": "https://localhost", "cron": "36 * * * *" }',
    BOOL,
  ],
  [5, 'OPEN', '', 'ae', '1.0.0', '-', '', 0, '', OPEN],
  [6, 'OPEN', '', 'af', '1.0.0', '-', '', 0, '', OPEN],
  [
    7,
    'IPV6_PING',
    '10G6',
    'ag',
    '1.0.0',
    '-',
    'ToPingCheck.pl',
    1,
    '{ "select": "ip6_address", "cron": "0 * * * *" }',
    BOOL,
  ],
  [8, 'OPEN', '', 'ah', '1.0.0', '', '', 0, '', OPEN],
  [9, 'OPEN', '', 'ai', '1.0.0', '', '', 0, '', OPEN],
  [10, 'OPEN', '', 'aj', '1.0.0', '', '', 0, '', OPEN],
  [
    11,
    'CHECK_MTU',
    'MTU',
    'ak',
    '1.0.0',
    '-',
    'ToMtuCheck.pl',
    1,
    '{ "check_name": "MTU", "base_url": "https://localhost", "cron": "45 * * * *" }',
    BOOL,
  ],
  [
    12,
    'CHECK_TRAFFIC_ROUTER_STATUS',
    'RTR',
    'al',
    '1.0.0',
    '-',
    'ToRTRCheck.pl',
    1,
    '{  "check_name": "RTR", "base_url": "https://localhost", "cron": "10 * * * *" }',
    BOOL,
  ],
  [13, 'OPEN', '', 'am', '1.0.0', '-', '', 0, '', OPEN],
  [
    14,
    'CACHE_HIT_RATIO_LAST_15',
    'CHR',
    'an',
    '1.0.0',
    '-',
    'ToCHRCheck.pl',
    1,
    '{ check_name: "CHR", "base_url": "https://localhost", cron": "0,15,30,45 * * * *" }',
    NUM,
  ],
  [
    15,
    'DISK_UTILIZATION',
    'CDU',
    'ao',
    '1.0.0',
    '-',
    'ToCDUCheck.pl',
    1,
    '{ check_name: "CDU", "base_url": "https://localhost", cron": "20 * * * *" }',
    NUM,
  ],
  [
    16,
    'ORT_ERROR_COUNT',
    'ORT',
    'ap',
    '1.0.0',
    '-',
    'ToORTCheck.pl',
    1,
    '{ check_name: "ORT", "base_url": "https://localhost", "cron": "40 * * * *" }',
    NUM,
  ],
  ...['aq', 'ar', 'bf', 'at', 'au', 'av', 'aw', 'ax', 'ay', 'az', 'ba', 'bb', 'bc', 'bd', 'be'].map(
    (column, i): Seed => [17 + i, 'OPEN', '', column, '1.0.0', '-', '', 0, '', OPEN],
  ),
];

const GRANTS: Record<string, string[]> = {
  operations: ['SERVER-CHECK:READ', 'SERVER-CHECK:CREATE', 'SERVER-CHECK:DELETE'],
  'read-only': ['SERVER-CHECK:READ'],
  portal: ['SERVER-CHECK:READ'],
  steering: ['SERVER-CHECK:READ'],
  federation: ['SERVER-CHECK:READ'],
};

function varchar(name: string, isNullable = false): TableColumnOptions {
  return { name, type: 'varchar', length: '255', isNullable };
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

async function sqliteForeignKey(
  queryRunner: QueryRunner,
  table: string,
  column: string,
  parent: string,
  restrict: boolean,
) {
  const name = `fk_${table}__${column}`;
  const missing = `NEW."${column}" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "${parent}" WHERE id = NEW."${column}")`;
  const message = `FOREIGN KEY missing ${table}.${column} -> ${parent}`;
  await queryRunner.query(
    `CREATE TRIGGER "${name}_insert" BEFORE INSERT ON "${table}" WHEN ${missing} BEGIN SELECT RAISE(ABORT, '${message}'); END`,
  );
  await queryRunner.query(
    `CREATE TRIGGER "${name}_update" BEFORE UPDATE OF "${column}" ON "${table}" WHEN ${missing} BEGIN SELECT RAISE(ABORT, '${message}'); END`,
  );
  if (restrict) {
    await queryRunner.query(
      `CREATE TRIGGER "${name}_restrict" BEFORE DELETE ON "${parent}" WHEN EXISTS (SELECT 1 FROM "${table}" WHERE "${column}" = OLD.id) ` +
        `BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY restrict ${table}.${column} -> ${parent}'); END`,
    );
  }
}

/**
 * Server checks (docs/original-behaviour.md#servercheck): `to_extension`, the original's 31 check
 * slots (seeded as the original seeds them: the known checks and `OPEN` slots), and `servercheck`,
 * one row per server with one column per slot. Text columns take the tables' default collation on
 * MySQL (the NO PAD binary one).
 */
export class Servercheck1763950000002 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'to_extension',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          varchar('name'),
          varchar('version'),
          varchar('info_url'),
          varchar('script_file'),
          { name: 'isactive', type: 'boolean', default: false },
          { name: 'additional_config_json', type: 'text', isNullable: true },
          { name: 'description', type: 'text', isNullable: true },
          varchar('servercheck_short_name', true),
          varchar('servercheck_column_name', true),
          { name: 'type', type: 'integer' },
          lastUpdated(lite),
        ],
        indices: [new TableIndex({ name: 'ix_to_extension__type', columnNames: ['type'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_to_extension__type',
            columnNames: ['type'],
            referencedTableName: 'type',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
            ...(lite ? {} : { onUpdate: 'NO ACTION' }),
          }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'servercheck',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'server', type: 'integer' },
          ...CHECK_COLUMNS.map((name): TableColumnOptions => ({ name, type: 'bigint', isNullable: true })),
          lastUpdated(lite),
        ],
        uniques: [new TableUnique({ name: 'uq_servercheck__server', columnNames: ['server'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_servercheck__server',
            columnNames: ['server'],
            referencedTableName: 'server',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            ...(lite ? {} : { onUpdate: 'NO ACTION' }),
          }),
        ],
      }),
    );
    if (lite) {
      await sqliteForeignKey(queryRunner, 'to_extension', 'type', 'type', true);
      await sqliteForeignKey(queryRunner, 'servercheck', 'server', 'server', false);
    }
    for (const [id, name, short, column, version, infoUrl, script, active, config, type] of SEEDS) {
      await queryRunner.query(
        `INSERT INTO to_extension (id, name, servercheck_short_name, servercheck_column_name, version, info_url,
           script_file, isactive, additional_config_json, type)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, id FROM type WHERE name = ?`,
        [id, name, short, column, version, infoUrl, script, active, config, type],
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
    await queryRunner.query(`DELETE FROM role_capability WHERE cap_name LIKE 'SERVER-CHECK:%'`);
    if (sqlite(queryRunner)) {
      await queryRunner.query('DROP TRIGGER IF EXISTS "fk_to_extension__type_restrict"');
    }
    await queryRunner.dropTable('servercheck');
    await queryRunner.dropTable('to_extension');
  }
}
