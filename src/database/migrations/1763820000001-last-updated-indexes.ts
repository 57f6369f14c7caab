import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The tables whose lists answer If-Modified-Since, as they were when this migration was written (the
 * same list as migration 1763810000000's; copied, not imported, so that neither can change the other).
 */
const TRACKED_TABLES = [
  'asn',
  'cachegroup',
  'cdn',
  'deliveryservice',
  'deliveryservice_server',
  'division',
  'federation',
  'federation_deliveryservice',
  'federation_resolver',
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

const indexName = (table: string): string => `ix_${table}__last_updated`;

/**
 * An index on `last_updated` of every table whose lists answer If-Modified-Since, so that the
 * check's `MAX(last_updated)` reads one index entry instead of scanning the table.
 */
export class LastUpdatedIndexes1763820000001 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TRACKED_TABLES) {
      await queryRunner.createIndex(
        table,
        new TableIndex({ name: indexName(table), columnNames: ['last_updated'] }),
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TRACKED_TABLES) {
      await queryRunner.dropIndex(table, indexName(table));
    }
  }
}
