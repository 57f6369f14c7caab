import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `tm_user.token` (on MySQL in the table's NO PAD binary collation): the one-time token of a registration or password-reset mail
 * (docs/original-behaviour.md#user-registration), as the original's column.
 */
export class UserToken1763950000001 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      queryRunner.connection.options.type === 'better-sqlite3'
        ? 'ALTER TABLE "tm_user" ADD COLUMN "token" varchar(255) NULL'
        : 'ALTER TABLE `tm_user` ADD COLUMN `token` varchar(255) NULL',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      queryRunner.connection.options.type === 'better-sqlite3'
        ? 'ALTER TABLE "tm_user" DROP COLUMN "token"'
        : 'ALTER TABLE `tm_user` DROP COLUMN `token`',
    );
  }
}
