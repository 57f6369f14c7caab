import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `ended_session`: the sessions signed out one by one (each sign-in has its own session id, in its
 * cookie), refused on every instance until their last cookie has expired, then pruned
 * (docs/decisions.md#d115). Signing out everywhere still raises `tm_user.session_generation`.
 */
export class EndedSessions1764100000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'ended_session',
        columns: [
          { name: 'session_id', type: 'varchar', length: '32', isPrimary: true },
          { name: 'tm_user_id', type: 'integer' },
          { name: 'expires', type: 'bigint' },
        ],
        indices: [
          new TableIndex({ name: 'ix_ended_session__tm_user_id', columnNames: ['tm_user_id'] }),
          new TableIndex({ name: 'ix_ended_session__expires', columnNames: ['expires'] }),
        ],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('ended_session');
  }
}
