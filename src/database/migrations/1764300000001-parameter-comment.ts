import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A parameter's free-text `comment`, as the original's `parameter.comment` (text, nullable;
 * docs/original-behaviour.md#parameters). MySQL's new column takes the table's NO PAD binary default.
 */
export class ParameterComment1764300000001 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      queryRunner.connection.options.type === 'better-sqlite3'
        ? 'ALTER TABLE "parameter" ADD COLUMN "comment" text NULL'
        : 'ALTER TABLE `parameter` ADD COLUMN `comment` text NULL',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      queryRunner.connection.options.type === 'better-sqlite3'
        ? 'ALTER TABLE "parameter" DROP COLUMN "comment"'
        : 'ALTER TABLE `parameter` DROP COLUMN `comment`',
    );
  }
}
