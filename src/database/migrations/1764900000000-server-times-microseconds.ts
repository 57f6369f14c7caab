import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The four update and apply times of a server (copied from the servers module, as migrations copy). */
const COLUMNS = [
  'config_update_time',
  'config_apply_time',
  'revalidate_update_time',
  'revalidate_apply_time',
];

/**
 * A server's update and apply times keep microseconds, as the original's `timestamptz` columns
 * (docs/decisions.md#d205). On SQLite a time is text: those written so far have three fractional
 * digits (or none); they get six, the form the service now writes its times in. On MySQL the columns are DATETIME(6) since they were created (1763780000000): nothing
 * to convert there.
 *
 * Down gives SQLite's texts three digits again, as the service wrote them before: the microseconds
 * below the millisecond are dropped.
 */
export class ServerTimesMicroseconds1764900000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'better-sqlite3') {
      return;
    }
    for (const column of COLUMNS) {
      await queryRunner.query(
        `UPDATE server SET ${column} = strftime('%Y-%m-%d %H:%M:%f', ${column}) || '000' ` +
          `WHERE ${column} IS NOT NULL AND length(${column}) <> 26 AND strftime('%f', ${column}) IS NOT NULL`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'better-sqlite3') {
      return;
    }
    for (const column of COLUMNS) {
      await queryRunner.query(
        `UPDATE server SET ${column} = substr(${column}, 1, 23) WHERE length(${column}) = 26`,
      );
    }
  }
}
