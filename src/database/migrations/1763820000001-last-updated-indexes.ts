import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { TRACKED_TABLES } from './1763810000000-last-deleted';

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
