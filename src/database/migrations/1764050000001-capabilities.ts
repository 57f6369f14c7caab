import {
  Table,
  TableUnique,
  type MigrationInterface,
  type QueryRunner,
  type TableColumnOptions,
} from 'typeorm';

const sqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

function lastUpdated(lite: boolean): TableColumnOptions {
  return lite
    ? { name: 'last_updated', type: 'datetime', default: 'CURRENT_TIMESTAMP' }
    : {
        name: 'last_updated',
        type: 'datetime',
        precision: 6,
        default: 'CURRENT_TIMESTAMP(6)',
        onUpdate: 'CURRENT_TIMESTAMP(6)',
      };
}

/**
 * The original's `capability` and `api_capability` tables, which `GET capabilities` and
 * `GET api_capabilities` (3.x) list (docs/decisions.md#d113). Created empty, as the
 * original's seed leaves them; no route writes them.
 */
export class Capabilities1764050000001 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'capability',
        columns: [
          { name: 'name', type: 'varchar', length: '255', isPrimary: true },
          { name: 'description', type: 'text', isNullable: true },
          lastUpdated(lite),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'api_capability',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'http_method', type: 'varchar', length: '16' },
          { name: 'route', type: 'varchar', length: '255' },
          { name: 'capability', type: 'varchar', length: '255' },
          lastUpdated(lite),
        ],
        uniques: [
          new TableUnique({
            name: 'uq_api_capability__http_method__route__capability',
            columnNames: ['http_method', 'route', 'capability'],
          }),
        ],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_capability');
    await queryRunner.dropTable('capability');
  }
}
