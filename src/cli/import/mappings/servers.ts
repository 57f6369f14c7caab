import { sameColumns, type TableMapping } from 'src/cli/import/mapping';

export const serverCapabilities: TableMapping = {
  table: 'server_capability',
  from: ['server_capability'],
  key: ['name'],
  select: (v) =>
    `SELECT name, ${v.release === '7.0' ? "''" : 'description'} AS description, last_updated ` +
    'FROM server_capability ORDER BY name',
};

const SERVER_COLUMNS = [
  'id',
  'host_name',
  'domain_name',
  'tcp_port',
  'https_port',
  'xmpp_id',
  'xmpp_passwd',
  'phys_location',
  'rack',
  'cachegroup',
  'type',
  'status',
  'offline_reason',
  'cdn_id',
  'mgmt_ip_address',
  'mgmt_ip_netmask',
  'mgmt_ip_gateway',
  'ilo_ip_address',
  'ilo_ip_netmask',
  'ilo_ip_gateway',
  'ilo_username',
  'ilo_password',
  'guid',
  'status_last_updated',
  'config_update_time',
  'config_apply_time',
  'revalidate_update_time',
  'revalidate_apply_time',
  'last_updated',
];

export const servers: TableMapping = {
  table: 'server',
  from: ['server'],
  select: (v) =>
    `SELECT ${SERVER_COLUMNS.join(', ')}, ` +
    (v.release === '7.0'
      ? 'false AS config_update_failed, false AS revalidate_update_failed'
      : 'config_update_failed, revalidate_update_failed') +
    ' FROM server ORDER BY id',
};

/** A server's profiles, named in Traffic Ops, by id here. */
export const serverProfiles: TableMapping = {
  table: 'server_profile',
  from: ['server_profile', 'profile'],
  key: ['server', 'profile'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY sp.server, sp.priority) AS id, sp.server, p.id AS profile, sp.priority ' +
    'FROM server_profile sp JOIN profile p ON p.name = sp.profile_name ORDER BY sp.server, sp.priority',
};

/** Interfaces are keyed by (server, name) in Traffic Ops; numbered here in that order. */
const NUMBERED_INTERFACES =
  'SELECT row_number() OVER (ORDER BY server, name) AS id, server, name, monitor, mtu, max_bandwidth, ' +
  'router_host_name, router_port_name FROM interface';

export const interfaces: TableMapping = {
  table: 'interface',
  from: ['interface'],
  key: ['server', 'name'],
  select: () => `${NUMBERED_INTERFACES} ORDER BY server, name`,
};

/** Addresses refer to their interface by the number the interfaces get above. */
export const ipAddresses: TableMapping = {
  table: 'ip_address',
  from: ['ip_address', 'interface'],
  key: ['server', 'address'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY a.server, a.interface, a.address) AS id, a.server, i.id AS interface, ' +
    `a.address, a.gateway, a.service_address FROM ip_address a JOIN (${NUMBERED_INTERFACES}) i ` +
    'ON i.server = a.server AND i.name = a.interface ORDER BY a.server, a.interface, a.address',
};

export const serverServerCapabilities: TableMapping = {
  table: 'server_server_capability',
  from: ['server_server_capability'],
  key: ['server', 'server_capability'],
  select: () =>
    'SELECT server, server_capability, last_updated FROM server_server_capability ORDER BY server, server_capability',
};

/** Extensions name the servercheck columns (and the check types) of the server checks below. */
export const extensions: TableMapping = sameColumns('to_extension', [
  'id',
  'name',
  'version',
  'info_url',
  'script_file',
  'isactive',
  'additional_config_json',
  'description',
  'servercheck_short_name',
  'servercheck_column_name',
  'type',
  'last_updated',
]);

const CHECK_COLUMNS =
  'aa ab ac ad ae af ag ah ai aj ak al am an ao ap aq ar bf at au av aw ax ay az ba bb bc bd be';

export const serverChecks: TableMapping = sameColumns('servercheck', [
  'id',
  'server',
  ...CHECK_COLUMNS.split(' '),
  'last_updated',
]);
