import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The built-in roles, types and statuses as the original's seeds write them (docs/decisions.md#d130):
 * their descriptions, and the permissions of the built-in roles (`operations` has the original's 130).
 * On a new database this makes the seeded rows the original's; on an existing one it corrects the
 * rows earlier migrations seeded and leaves alone what users made or changed: a description is
 * rewritten only while it still reads as this service's seed wrote it, and only the permissions listed
 * here are granted or revoked. The tenants, the CDN `ALL`, the profiles and the parameters were the
 * original's already.
 */

/** [role, as seeded before, as the original seeds it]. */
const ROLE_DESCRIPTIONS: [string, string, string][] = [
  ['admin', 'super-user', 'Has access to everything - cannot be modified or deleted'],
  ['operations', 'block all access', 'Has all reads and most write capabilities'],
  ['read-only', 'read-only user', 'Has access to all read capabilities'],
  ['disallowed', 'block all access', 'Block all access'],
  ['steering', 'Role for Steering Delivery Services', 'Steering User'],
];

const READS = ['ACME:READ', 'CAPABILITY:READ', 'PLUGIN-READ', 'TRAFFIC-VAULT:READ'];

/** Permissions the original's seeds give a built-in role that earlier migrations did not. */
const GRANTS: [string, string[]][] = [
  [
    'operations',
    [...READS, 'ACME:CREATE', 'ACME:DELETE', 'ACME:UPDATE', 'ISO:GENERATE', 'SECURE-SERVER:READ'],
  ],
  ['read-only', READS],
  ['portal', READS],
  ['federation', READS],
  ['steering', READS],
  ['trouter', ['DNS-SEC:READ', 'DS-SECURITY-KEY:READ']],
];

/** Permissions earlier migrations gave a built-in role that the original's seeds do not. */
const REVOKES: [string, string[]][] = [
  ['operations', ['USER:DELETE']],
  ['trouter', ['FEDERATION:READ', 'SERVER:READ']],
];

/** [status, as seeded before, as the original seeds it]. */
const STATUS_DESCRIPTIONS: [string, string, string][] = [
  ['OFFLINE', 'Server is offline.', 'Server is Offline. Not active in any configuration.'],
  [
    'ADMIN_DOWN',
    'Temporary down. Edge: XMPP client will send status OFFLINE to CCR, otherwise similar to REPORTED.',
    'Sever is administrative down and does not receive traffic.',
  ],
];

/** [type, its table, as the original seeds it]; earlier migrations described each as `<name> <table> type`. */
const TYPE_DESCRIPTIONS: [string, string, string][] = [
  ['HTTP', 'deliveryservice', 'HTTP Content Routing'],
  ['HTTP_NO_CACHE', 'deliveryservice', 'HTTP Content Routing, no caching'],
  ['HTTP_LIVE', 'deliveryservice', 'HTTP Content routing cache in RAM'],
  ['HTTP_LIVE_NATNL', 'deliveryservice', 'HTTP Content routing, RAM cache, National'],
  ['DNS', 'deliveryservice', 'DNS Content Routing'],
  ['DNS_LIVE', 'deliveryservice', 'DNS Content routing, RAM cache, Local'],
  ['DNS_LIVE_NATNL', 'deliveryservice', 'DNS Content routing, RAM cache, National'],
  [
    'ANY_MAP',
    'deliveryservice',
    'No Content Routing - arbitrary remap at the edge, no Traffic Router config',
  ],
  ['STEERING', 'deliveryservice', 'Steering Delivery Service'],
  ['CLIENT_STEERING', 'deliveryservice', 'Client-Controlled Steering Delivery Service'],
  ['EDGE', 'server', 'Edge Cache'],
  ['MID', 'server', 'Mid Tier Cache'],
  ['ORG', 'server', 'Origin'],
  ['CCR', 'server', 'Traffic Router'],
  ['RASCAL', 'server', 'Traffic Monitor'],
  ['RIAK', 'server', 'Riak keystore'],
  ['INFLUXDB', 'server', 'influxDb server'],
  ['TRAFFIC_ANALYTICS', 'server', 'traffic analytics server'],
  ['TRAFFIC_OPS', 'server', 'traffic ops server'],
  ['TRAFFIC_OPS_DB', 'server', 'traffic ops DB server'],
  ['TRAFFIC_PORTAL', 'server', 'traffic portal server'],
  ['TRAFFIC_STATS', 'server', 'traffic stats server'],
  ['EDGE_LOC', 'cachegroup', 'Edge Logical Location'],
  ['MID_LOC', 'cachegroup', 'Mid Logical Location'],
  ['ORG_LOC', 'cachegroup', 'Origin Logical Site'],
  ['TR_LOC', 'cachegroup', 'Traffic Router Logical Location'],
  ['TC_LOC', 'cachegroup', 'Traffic Control Component Location'],
  ['CHECK_EXTENSION_BOOL', 'to_extension', 'Extension for checkmark in Server Check'],
  ['CHECK_EXTENSION_NUM', 'to_extension', 'Extension for int value in Server Check'],
  ['CHECK_EXTENSION_OPEN_SLOT', 'to_extension', 'Open slot for check in Server Status'],
  ['CONFIG_EXTENSION', 'to_extension', 'Extension for additional configuration file'],
  ['STATISTIC_EXTENSION', 'to_extension', 'Extension source for 12M graphs'],
  ['HOST_REGEXP', 'regex', 'Host header regular expression'],
  ['HEADER_REGEXP', 'regex', 'HTTP header regular expression'],
  ['PATH_REGEXP', 'regex', 'URL path regular expression'],
  ['STEERING_REGEXP', 'regex', 'Steering target filter regular expression'],
  ['RESOLVE4', 'federation', 'federation type resolve4'],
  ['RESOLVE6', 'federation', 'federation type resolve6'],
  ['A_RECORD', 'staticdnsentry', 'Static DNS A entry'],
  ['AAAA_RECORD', 'staticdnsentry', 'Static DNS AAAA entry'],
  ['CNAME_RECORD', 'staticdnsentry', 'Static DNS CNAME entry'],
  ['TXT_RECORD', 'staticdnsentry', 'Static DNS TXT entry'],
  ['STEERING_WEIGHT', 'steering_target', 'Weighted steering target'],
  ['STEERING_ORDER', 'steering_target', 'Ordered steering target'],
  ['STEERING_GEO_ORDER', 'steering_target', 'Geo-ordered steering target'],
  ['STEERING_GEO_WEIGHT', 'steering_target', 'Geo-weighted steering target'],
];

export class OriginalSeedRows1764300000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.describe(queryRunner, 'forward');
    await this.grant(queryRunner, GRANTS);
    await this.revoke(queryRunner, REVOKES);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await this.describe(queryRunner, 'back');
    await this.revoke(queryRunner, GRANTS);
    await this.grant(queryRunner, REVOKES);
  }

  /** Rewrites each description that still reads as the other side's text. */
  private async describe(queryRunner: QueryRunner, direction: 'forward' | 'back'): Promise<void> {
    const rows: [table: string, name: string, before: string, after: string][] = [
      ...ROLE_DESCRIPTIONS.map(([n, b, a]): [string, string, string, string] => ['role', n, b, a]),
      ...STATUS_DESCRIPTIONS.map(([n, b, a]): [string, string, string, string] => ['status', n, b, a]),
      ...TYPE_DESCRIPTIONS.map(([n, t, a]): [string, string, string, string] => [
        'type',
        n,
        `${n} ${t} type`,
        a,
      ]),
    ];
    for (const [table, name, before, after] of rows) {
      const [from, to] = direction === 'forward' ? [before, after] : [after, before];
      await queryRunner.query(`UPDATE ${table} SET description = ? WHERE name = ? AND description = ?`, [
        to,
        name,
        from,
      ]);
    }
  }

  private async grant(queryRunner: QueryRunner, grants: [string, string[]][]): Promise<void> {
    for (const [role, permissions] of grants) {
      for (const permission of permissions) {
        await queryRunner.query(
          'INSERT INTO role_capability (role_id, cap_name) SELECT r.id, ? FROM role r WHERE r.name = ? ' +
            'AND NOT EXISTS (SELECT 1 FROM role_capability rc WHERE rc.role_id = r.id AND rc.cap_name = ?)',
          [permission, role, permission],
        );
      }
    }
  }

  private async revoke(queryRunner: QueryRunner, revokes: [string, string[]][]): Promise<void> {
    for (const [role, permissions] of revokes) {
      for (const permission of permissions) {
        await queryRunner.query(
          'DELETE FROM role_capability WHERE cap_name = ? AND role_id IN (SELECT id FROM role WHERE name = ?)',
          [permission, role],
        );
      }
    }
  }
}
