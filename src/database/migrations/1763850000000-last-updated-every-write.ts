import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables whose rows serve conditional writes (PUT/DELETE with If-Match / If-Unmodified-Since)
 * and conditional lists (If-Modified-Since).
 */
const TABLES = [
  'asn',
  'cachegroup',
  'cdn',
  'deliveryservice',
  'deliveryservice_server',
  'division',
  'federation',
  'federation_deliveryservice',
  'federation_resolver',
  'federation_tmuser',
  'parameter',
  'phys_location',
  'profile',
  'profile_parameter',
  'region',
  'role',
  'server',
  'status',
  'steering_target',
  'tenant',
  'tm_user',
  'type',
];

const trigger = (table: string): string => `trg_${table}_touched`;

/**
 * Every update of a row moves its `last_updated` forward by at least a millisecond, whoever writes
 * it and however (repository, query builder or raw SQL): the ETag and the precondition checks read
 * `last_updated`, so a row written twice within one clock second must not keep one timestamp. The
 * database's own clock is used (one clock for every instance), with sub-second precision, and a
 * write never moves it backwards: `max(now, previous + 1 ms)`.
 *
 * MySQL: a BEFORE UPDATE trigger sets the new value (it overrides whatever the statement set).
 * SQLite cannot assign NEW in a trigger, so an AFTER UPDATE trigger writes the row's timestamp
 * again (SQLite does not re-fire a trigger from its own statement unless recursive_triggers is on,
 * which nothing here enables).
 */
export class LastUpdatedEveryWrite1763850000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.options.type === 'better-sqlite3';
    for (const table of TABLES) {
      await queryRunner.query(
        sqlite
          ? `CREATE TRIGGER "${trigger(table)}" AFTER UPDATE ON "${table}" FOR EACH ROW BEGIN ` +
              `UPDATE "${table}" SET last_updated = max(strftime('%Y-%m-%d %H:%M:%f', 'now'), ` +
              `coalesce(strftime('%Y-%m-%d %H:%M:%f', OLD.last_updated, '+0.001 seconds'), '')) ` +
              'WHERE rowid = NEW.rowid; END'
          : `CREATE TRIGGER \`${trigger(table)}\` BEFORE UPDATE ON \`${table}\` FOR EACH ROW ` +
              'SET NEW.last_updated = GREATEST(CURRENT_TIMESTAMP(6), ' +
              'OLD.last_updated + INTERVAL 1000 MICROSECOND)',
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.options.type === 'better-sqlite3';
    for (const table of TABLES) {
      await queryRunner.query(
        sqlite
          ? `DROP TRIGGER IF EXISTS "${trigger(table)}"`
          : `DROP TRIGGER IF EXISTS \`${trigger(table)}\``,
      );
    }
  }
}
