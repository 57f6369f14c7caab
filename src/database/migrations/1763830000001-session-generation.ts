import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `tm_user.session_generation`: the number every session cookie of the user carries. Signing out,
 * a password change and a role change increase it, so that the cookies issued before stop being
 * accepted (sessions stay stateless signed cookies; the signed-in user's lookup compares the two).
 */
export class SessionGeneration1763830000001 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      queryRunner.connection.options.type === 'better-sqlite3'
        ? 'ALTER TABLE "tm_user" ADD COLUMN "session_generation" integer NOT NULL DEFAULT 0'
        : 'ALTER TABLE `tm_user` ADD COLUMN `session_generation` int NOT NULL DEFAULT 0',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      queryRunner.connection.options.type === 'better-sqlite3'
        ? 'ALTER TABLE "tm_user" DROP COLUMN "session_generation"'
        : 'ALTER TABLE `tm_user` DROP COLUMN `session_generation`',
    );
  }
}
