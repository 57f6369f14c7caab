import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reference rows every installation starts with (docs/original-behaviour.md#seed-data).
 * The first admin user is not seeded: it is created at first start (docs/decisions.md#d11).
 */

const READ = [
  'ASN:READ',
  'CACHE-GROUP:READ',
  'CDN:READ',
  'DELIVERY-SERVICE:READ',
  'DIVISION:READ',
  'FEDERATION:READ',
  'FEDERATION-RESOLVER:READ',
  'LOG:READ',
  'PARAMETER:READ',
  'PHYSICAL-LOCATION:READ',
  'PROFILE:READ',
  'REGION:READ',
  'ROLE:READ',
  'SERVER:READ',
  'STATUS:READ',
  'STEERING:READ',
  'TENANT:READ',
  'TYPE:READ',
  'USER:READ',
];
const crud = (resource: string): string[] => ['CREATE', 'UPDATE', 'DELETE'].map((a) => `${resource}:${a}`);
const DS_WRITERS = ['DELIVERY-SERVICE:UPDATE', ...crud('STEERING'), 'DELIVERY-SERVICE-SAFE:UPDATE'];
const FEDERATION_WRITERS = [
  ...crud('FEDERATION'),
  'FEDERATION-RESOLVER:CREATE',
  'FEDERATION-RESOLVER:DELETE',
];
const OPERATIONS = [
  ...READ,
  ...DS_WRITERS,
  ...FEDERATION_WRITERS,
  'DELIVERY-SERVICE:CREATE',
  'DELIVERY-SERVICE:DELETE',
  'SERVER:QUEUE',
  ...[
    'ASN',
    'CACHE-GROUP',
    'CDN',
    'DIVISION',
    'PARAMETER',
    'PHYSICAL-LOCATION',
    'PROFILE',
    'REGION',
    'SERVER',
    'STATUS',
    'TENANT',
    'TYPE',
    'USER',
  ].flatMap(crud),
];

const ROLES: { id: number; name: string; description: string; level: number; permissions: string[] }[] = [
  { id: 1, name: 'admin', description: 'super-user', level: 30, permissions: ['ALL'] },
  { id: 2, name: 'operations', description: 'block all access', level: 20, permissions: OPERATIONS },
  {
    id: 3,
    name: 'read-only',
    description: 'read-only user',
    level: 10,
    permissions: [...READ, 'DELIVERY-SERVICE-SAFE:UPDATE'],
  },
  { id: 4, name: 'disallowed', description: 'block all access', level: 0, permissions: [] },
  { id: 5, name: 'portal', description: 'Portal User', level: 15, permissions: [...READ, ...DS_WRITERS] },
  {
    id: 6,
    name: 'steering',
    description: 'Role for Steering Delivery Services',
    level: 15,
    permissions: [...READ, ...DS_WRITERS, ...FEDERATION_WRITERS],
  },
  {
    id: 7,
    name: 'federation',
    description: 'Role for Secondary CZF',
    level: 15,
    permissions: [...READ, ...DS_WRITERS, ...FEDERATION_WRITERS],
  },
  {
    id: 8,
    name: 'trouter',
    description: 'Limited role for Traffic Router calls to Traffic Ops',
    level: 10,
    permissions: [
      'CDN:READ',
      'DELIVERY-SERVICE:READ',
      'STEERING:READ',
      'FEDERATION:READ',
      'FEDERATION-RESOLVER:READ',
      'SERVER:READ',
    ],
  },
];

const TYPES: Record<string, string[]> = {
  deliveryservice: [
    'HTTP',
    'HTTP_NO_CACHE',
    'HTTP_LIVE',
    'HTTP_LIVE_NATNL',
    'DNS',
    'DNS_LIVE',
    'DNS_LIVE_NATNL',
    'ANY_MAP',
    'STEERING',
    'CLIENT_STEERING',
  ],
  server: [
    'EDGE',
    'MID',
    'ORG',
    'CCR',
    'RASCAL',
    'RIAK',
    'INFLUXDB',
    'TRAFFIC_ANALYTICS',
    'TRAFFIC_OPS',
    'TRAFFIC_OPS_DB',
    'TRAFFIC_PORTAL',
    'TRAFFIC_STATS',
  ],
  cachegroup: ['EDGE_LOC', 'MID_LOC', 'ORG_LOC', 'TR_LOC', 'TC_LOC'],
  to_extension: [
    'CHECK_EXTENSION_BOOL',
    'CHECK_EXTENSION_NUM',
    'CHECK_EXTENSION_OPEN_SLOT',
    'CONFIG_EXTENSION',
    'STATISTIC_EXTENSION',
  ],
  regex: ['HOST_REGEXP', 'HEADER_REGEXP', 'PATH_REGEXP', 'STEERING_REGEXP'],
  federation: ['RESOLVE4', 'RESOLVE6'],
  staticdnsentry: ['A_RECORD', 'AAAA_RECORD', 'CNAME_RECORD', 'TXT_RECORD'],
  steering_target: ['STEERING_WEIGHT', 'STEERING_ORDER', 'STEERING_GEO_ORDER', 'STEERING_GEO_WEIGHT'],
};

const STATUSES: [string, string][] = [
  ['ONLINE', 'Server is online.'],
  ['OFFLINE', 'Server is offline.'],
  ['REPORTED', 'Server is online and reported in the health protocol.'],
  [
    'ADMIN_DOWN',
    'Temporary down. Edge: XMPP client will send status OFFLINE to CCR, otherwise similar to REPORTED.',
  ],
  ['PRE_PROD', 'Pre Production. Not active in any configuration.'],
  ['CCR_IGNORE', 'Server is ignored by traffic router.'],
];

export class SeedReferenceData1763770000001 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`INSERT INTO tenant (id, name, active, parent_id) VALUES (1, 'root', 1, NULL)`);
    await queryRunner.query(
      `INSERT INTO tenant (id, name, active, parent_id) VALUES (2, 'unassigned', 1, 1)`,
    );
    for (const role of ROLES) {
      await queryRunner.query(`INSERT INTO role (id, name, description, priv_level) VALUES (?, ?, ?, ?)`, [
        role.id,
        role.name,
        role.description,
        role.level,
      ]);
      for (const permission of new Set(role.permissions)) {
        await queryRunner.query(`INSERT INTO role_capability (role_id, cap_name) VALUES (?, ?)`, [
          role.id,
          permission,
        ]);
      }
    }
    for (const [useInTable, names] of Object.entries(TYPES)) {
      for (const name of names) {
        await queryRunner.query(`INSERT INTO type (name, description, use_in_table) VALUES (?, ?, ?)`, [
          name,
          `${name} ${useInTable} type`,
          useInTable,
        ]);
      }
    }
    for (const [name, description] of STATUSES) {
      await queryRunner.query(`INSERT INTO status (name, description) VALUES (?, ?)`, [name, description]);
    }
    await queryRunner.query(`INSERT INTO cdn (name, domain_name, dnssec_enabled) VALUES ('ALL', '-', 0)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['cdn', 'status', 'type', 'role_capability', 'role']) {
      await queryRunner.query(`DELETE FROM ${table}`);
    }
    await queryRunner.query(`DELETE FROM tenant WHERE parent_id IS NOT NULL`);
    await queryRunner.query(`DELETE FROM tenant`);
  }
}
