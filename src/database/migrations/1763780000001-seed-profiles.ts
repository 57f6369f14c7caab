import { createHash } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The profiles and parameters every installation starts with (docs/original-behaviour.md#seed-data). */
const PROFILES: [string, string, string][] = [
  ['GLOBAL', 'Global Traffic Ops profile, DO NOT DELETE', 'UNK_PROFILE'],
  ['TRAFFIC_ANALYTICS', 'Traffic Analytics profile', 'UNK_PROFILE'],
  ['TRAFFIC_OPS', 'Traffic Ops profile', 'UNK_PROFILE'],
  ['TRAFFIC_OPS_DB', 'Traffic Ops DB profile', 'UNK_PROFILE'],
  ['TRAFFIC_PORTAL', 'Traffic Portal profile', 'TP_PROFILE'],
  ['TRAFFIC_STATS', 'Traffic Stats profile', 'TS_PROFILE'],
  ['INFLUXDB', 'InfluxDb profile', 'INFLUXDB_PROFILE'],
  ['RIAK_ALL', 'Riak profile for all CDNs', 'RIAK_PROFILE'],
];

const PARAMETERS: { name: string; configFile: string; value: string; profile?: string }[] = [
  { name: 'tm.instance_name', configFile: 'global', value: 'Traffic Ops CDN', profile: 'GLOBAL' },
  { name: 'tm.toolname', configFile: 'global', value: 'Traffic Ops', profile: 'GLOBAL' },
  { name: 'maxRevalDurationDays', configFile: 'regex_revalidate.config', value: '90', profile: 'GLOBAL' },
  { name: 'mso.parent_retry', configFile: 'parent.config', value: 'simple_retry' },
  { name: 'mso.parent_retry', configFile: 'parent.config', value: 'unavailable_server_retry' },
  { name: 'mso.parent_retry', configFile: 'parent.config', value: 'both' },
];

/** Must agree with parameterIdentity() in src/modules/parameters (copied: migrations are frozen). */
function identity(name: string, configFile: string, value: string): string {
  return createHash('sha256')
    .update(JSON.stringify([name, configFile, value]))
    .digest('hex');
}

export class SeedProfiles1763780000001 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, description, type] of PROFILES) {
      await queryRunner.query(
        "INSERT INTO profile (name, description, type, cdn, routing_disabled) SELECT ?, ?, ?, id, 0 FROM cdn WHERE name = 'ALL'",
        [name, description, type],
      );
    }
    for (const p of PARAMETERS) {
      await queryRunner.query(
        'INSERT INTO parameter (name, config_file, value, identity, secure) VALUES (?, ?, ?, ?, 0)',
        [p.name, p.configFile, p.value, identity(p.name, p.configFile, p.value)],
      );
      if (p.profile) {
        await queryRunner.query(
          'INSERT INTO profile_parameter (profile, parameter) SELECT pr.id, pa.id FROM profile pr, parameter pa ' +
            'WHERE pr.name = ? AND pa.identity = ?',
          [p.profile, identity(p.name, p.configFile, p.value)],
        );
      }
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DELETE FROM profile_parameter');
    await queryRunner.query('DELETE FROM parameter');
    await queryRunner.query('DELETE FROM profile');
  }
}
