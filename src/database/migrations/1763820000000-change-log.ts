import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, dropTable, idColumn, lastUpdatedColumn } from './support/schema-v1';

/** The change log: one row per successful write, who made it and what it was (docs/decisions.md#d32). */
export class ChangeLog1763820000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(queryRunner, {
      name: 'log',
      columns: [
        idColumn(),
        { name: 'level', type: 'varchar', length: '45', isNullable: true },
        { name: 'message', type: 'text' },
        { name: 'tm_user', type: 'integer' },
        { name: 'ticketnum', type: 'varchar', length: '64', isNullable: true },
        lastUpdatedColumn(queryRunner),
      ],
      indices: [['last_updated'], ['tm_user']],
      foreignKeys: [{ column: 'tm_user', references: 'tm_user', onDelete: 'RESTRICT' }],
    });
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropTable(queryRunner, 'log');
  }
}
