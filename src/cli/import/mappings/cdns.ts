import { sameColumns, type TableMapping } from 'src/cli/import/mapping';

export const types: TableMapping = {
  table: 'type',
  from: ['type'],
  select: () =>
    "SELECT id, name, COALESCE(description, '') AS description, COALESCE(use_in_table, '') AS use_in_table, " +
    'last_updated FROM type ORDER BY id',
};

export const statuses: TableMapping = sameColumns('status', ['id', 'name', 'description', 'last_updated']);

export const cdns: TableMapping = {
  table: 'cdn',
  from: ['cdn'],
  select: (v) =>
    `SELECT id, name, domain_name, dnssec_enabled, ${v.release === '7.0' ? 'NULL::bigint' : 'ttl_override'} AS ttl_override, ` +
    'last_updated FROM cdn ORDER BY id',
};

/** Locks name their CDN and user in Traffic Ops; this service refers to them by id. */
export const cdnLocks: TableMapping = {
  table: 'cdn_lock',
  from: ['cdn_lock', 'cdn', 'tm_user'],
  key: ['cdn_id'],
  select: () =>
    'SELECT c.id AS cdn_id, u.id AS tm_user_id, l.message, l.soft, l.last_updated FROM cdn_lock l ' +
    'JOIN cdn c ON c.name = l.cdn JOIN tm_user u ON u.username = l.username ORDER BY c.id',
};

export const cdnLockUsers: TableMapping = {
  table: 'cdn_lock_user',
  from: ['cdn_lock_user', 'cdn', 'tm_user'],
  key: ['cdn_id', 'tm_user_id'],
  select: () =>
    'SELECT c.id AS cdn_id, u.id AS tm_user_id FROM cdn_lock_user l ' +
    'JOIN cdn c ON c.name = l.cdn JOIN tm_user u ON u.username = l.username ORDER BY c.id, u.id',
};

export const cdnNotifications: TableMapping = {
  table: 'cdn_notification',
  from: ['cdn_notification', 'cdn', 'tm_user'],
  select: () =>
    'SELECT n.id, c.id AS cdn_id, u.id AS tm_user_id, n.notification, n.last_updated FROM cdn_notification n ' +
    'JOIN cdn c ON c.name = n.cdn JOIN tm_user u ON u.username = n."user" ORDER BY n.id',
};

/** The latest CRConfig and monitoring snapshot of each CDN, as text (byte for byte what was taken). */
export const snapshots: TableMapping = {
  table: 'snapshot',
  from: ['snapshot'],
  key: ['cdn'],
  select: () => 'SELECT cdn, crconfig, monitoring, last_updated FROM snapshot ORDER BY cdn',
};
