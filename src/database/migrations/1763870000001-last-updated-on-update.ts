import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose entity declares `last_updated` with @UpdateDateColumn (copied: migrations are frozen). */
const TABLES = [
  'asn',
  'cachegroup',
  'cdn',
  'deliveryservice',
  'deliveryservice_server',
  'division',
  'federation',
  'federation_deliveryservice',
  'federation_federation_resolver',
  'federation_resolver',
  'federation_tmuser',
  'origin',
  'parameter',
  'phys_location',
  'profile',
  'profile_parameter',
  'regex',
  'region',
  'role',
  'role_capability',
  'server',
  'status',
  'steering_target',
  'tenant',
  'tm_user',
  'type',
];

/**
 * MySQL/MariaDB: `last_updated` gets `ON UPDATE CURRENT_TIMESTAMP(6)`.
 *
 * TypeORM declares that clause for every @UpdateDateColumn on MySQL and offers no way to leave it
 * out, so without it the schema builder wanted to change all these columns. The application's
 * behaviour does not change: every UPDATE it makes goes through TypeORM, which sets `last_updated`
 * itself. An UPDATE written by hand (an operator's, or raw SQL) now moves `last_updated` too on
 * MySQL — as it should, since If-Modified-Since answers from it — but not on SQLite, which has no such
 * clause: raw UPDATEs in the application must set `last_updated` themselves. Nothing to do on
 * SQLite.
 */
export class LastUpdatedOnUpdate1763870000001 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await modify(queryRunner, ' ON UPDATE CURRENT_TIMESTAMP(6)');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await modify(queryRunner, '');
  }
}

async function modify(queryRunner: QueryRunner, onUpdate: string): Promise<void> {
  if (queryRunner.connection.options.type === 'better-sqlite3') {
    return;
  }
  for (const table of TABLES) {
    await queryRunner.query(
      `ALTER TABLE \`${table}\` MODIFY \`last_updated\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)${onUpdate}`,
    );
  }
}
