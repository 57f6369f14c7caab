import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, dropTable, idColumn, lastUpdatedColumn, timestampColumn } from './support/schema-v1';

/** The roles that read content invalidation jobs, and those that write them (as the original seeds them). */
const JOB_READERS = ['operations', 'read-only', 'portal', 'steering', 'federation'];
const JOB_WRITERS = ['operations', 'portal', 'steering', 'federation'];
const WRITE_PERMISSIONS = ['JOB:CREATE', 'JOB:UPDATE', 'JOB:DELETE'];

const DELETED_TRIGGER = 'trg_job_deleted';
const CASCADE_TRIGGER = 'trg_job__job_deliveryservice_cascade';

/**
 * Content invalidation jobs (`job`, docs/original-behaviour.md#jobs): the columns of the original the
 * API uses, its deletions tracked in `last_deleted` (the list answers If-Modified-Since), and the
 * JOB permissions of the seeded roles.
 */
export class InvalidationJobs1763900000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.options.type === 'better-sqlite3';
    await createTable(queryRunner, {
      name: 'job',
      columns: [
        idColumn(),
        { name: 'ttl_hr', type: 'integer', isNullable: true },
        { name: 'asset_url', type: 'text' },
        timestampColumn(queryRunner, 'start_time', false),
        timestampColumn(queryRunner, 'entered_time', false),
        { name: 'job_user', type: 'integer' },
        { name: 'job_deliveryservice', type: 'integer', isNullable: true },
        { name: 'invalidation_type', type: 'varchar', length: '32' },
        lastUpdatedColumn(queryRunner),
      ],
      indices: [['job_deliveryservice'], ['job_user'], ['start_time'], ['last_updated']],
      foreignKeys: [
        { column: 'job_user', references: 'tm_user', onDelete: 'RESTRICT' },
        { column: 'job_deliveryservice', references: 'deliveryservice', onDelete: 'CASCADE' },
      ],
    });
    if (sqlite) {
      await queryRunner.query(
        `CREATE TRIGGER "${DELETED_TRIGGER}" AFTER DELETE ON "job" BEGIN ` +
          `INSERT INTO last_deleted (table_name, last_updated) VALUES ('job', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
          'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END',
      );
    } else {
      // Foreign keys state ON UPDATE NO ACTION on MySQL/MariaDB (migration 1763870000000).
      await queryRunner.query(
        'ALTER TABLE `job` DROP FOREIGN KEY `fk_job__job_user`, DROP FOREIGN KEY `fk_job__job_deliveryservice`',
      );
      await queryRunner.query(
        'ALTER TABLE `job` ' +
          'ADD CONSTRAINT `fk_job__job_user` FOREIGN KEY (`job_user`) REFERENCES `tm_user` (`id`) ' +
          'ON DELETE RESTRICT ON UPDATE NO ACTION, ' +
          'ADD CONSTRAINT `fk_job__job_deliveryservice` FOREIGN KEY (`job_deliveryservice`) ' +
          'REFERENCES `deliveryservice` (`id`) ON DELETE CASCADE ON UPDATE NO ACTION',
      );
      // As every @UpdateDateColumn on MySQL (migration 1763870000001).
      await queryRunner.query(
        'ALTER TABLE `job` MODIFY `last_updated` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6)',
      );
      await queryRunner.query(
        `CREATE TRIGGER \`${DELETED_TRIGGER}\` AFTER DELETE ON \`job\` FOR EACH ROW ` +
          `INSERT INTO last_deleted (table_name, last_updated) VALUES ('job', CURRENT_TIMESTAMP(6)) ` +
          'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
      );
      // MySQL fires no trigger for the rows a cascade deletes (migration 1763870000002).
      await queryRunner.query(
        `CREATE TRIGGER \`${CASCADE_TRIGGER}\` BEFORE DELETE ON \`deliveryservice\` FOR EACH ROW ` +
          `INSERT INTO last_deleted (table_name, last_updated) SELECT 'job', CURRENT_TIMESTAMP(6) FROM DUAL ` +
          'WHERE EXISTS (SELECT 1 FROM `job` WHERE `job_deliveryservice` = OLD.id) ' +
          'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
      );
    }
    await this.grant(queryRunner, 'JOB:READ', JOB_READERS);
    for (const permission of WRITE_PERMISSIONS) {
      await this.grant(queryRunner, permission, JOB_WRITERS);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.options.type === 'better-sqlite3';
    await queryRunner.query(
      `DELETE FROM role_capability WHERE cap_name IN ('JOB:READ', 'JOB:CREATE', 'JOB:UPDATE', 'JOB:DELETE')`,
    );
    if (!sqlite) {
      await queryRunner.query(`DROP TRIGGER IF EXISTS \`${CASCADE_TRIGGER}\``);
    }
    await queryRunner.query(`DROP TRIGGER IF EXISTS ${DELETED_TRIGGER}`);
    await queryRunner.query(`DELETE FROM last_deleted WHERE table_name = 'job'`);
    await dropTable(queryRunner, 'job');
  }

  private async grant(queryRunner: QueryRunner, permission: string, roles: string[]): Promise<void> {
    await queryRunner.query(
      `INSERT INTO role_capability (role_id, cap_name) SELECT id, ? FROM role WHERE name IN (${roles
        .map(() => '?')
        .join(', ')})`,
      [permission, ...roles],
    );
  }
}
