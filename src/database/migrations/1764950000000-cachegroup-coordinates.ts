import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every cache group has its own coordinate, `from_cachegroup_<name>` at the cache group's place, as
 * the original makes one with each cache group (docs/decisions.md#d217): cache groups made before
 * the service kept them get theirs, unless a coordinate of that name exists already. Down removes
 * none (a coordinate may have been put to use since, by an origin).
 */
export class CachegroupCoordinates1764950000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.options.type === 'better-sqlite3';
    const name = sqlite ? "'from_cachegroup_' || cg.name" : "CONCAT('from_cachegroup_', cg.name)";
    // The time as the service writes it on each (SQLite: text with milliseconds).
    const now = sqlite ? "strftime('%Y-%m-%d %H:%M:%f', 'now')" : 'CURRENT_TIMESTAMP(6)';
    await queryRunner.query(
      `INSERT INTO coordinate (name, latitude, longitude, last_updated) ` +
        `SELECT ${name}, cg.latitude, cg.longitude, ${now} FROM cachegroup cg ` +
        `WHERE NOT EXISTS (SELECT 1 FROM coordinate c WHERE c.name = ${name}) ORDER BY cg.id`,
    );
  }

  public async down(): Promise<void> {
    // See above.
  }
}
