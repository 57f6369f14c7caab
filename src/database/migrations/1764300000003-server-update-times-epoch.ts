import type { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = [
  'config_update_time',
  'config_apply_time',
  'revalidate_update_time',
  'revalidate_apply_time',
];

/**
 * A server's update and apply times are never missing, as the original's `NOT NULL DEFAULT epoch`
 * columns: servers made before the service wrote them at creation get the epoch (nothing pending,
 * as a missing time already read). Nothing to undo: the epoch and a missing time mean the same.
 */
export class ServerUpdateTimesEpoch1764300000003 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const epoch =
      queryRunner.connection.options.type === 'better-sqlite3'
        ? '1970-01-01 00:00:00.000'
        : '1970-01-01 00:00:00';
    for (const column of COLUMNS) {
      await queryRunner.query(`UPDATE server SET ${column} = ? WHERE ${column} IS NULL`, [epoch]);
    }
  }

  public async down(): Promise<void> {
    // See above.
  }
}
