import { sameColumns, tooLong, type TableMapping } from 'src/cli/import/mapping';

const SCRYPT_HASH = /^SCRYPT:\d+:\d+:\d+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/;

export const tenants: TableMapping = sameColumns(
  'tenant',
  ['id', 'name', 'active', 'parent_id', 'last_updated'],
  {
    parents: ['parent_id'],
  },
);

export const roles: TableMapping = {
  table: 'role',
  from: ['role'],
  select: () =>
    "SELECT id, name, COALESCE(description, '') AS description, priv_level, last_updated FROM role ORDER BY id",
};

/** Permissions: link rows without ids in Traffic Ops, numbered here in a stable order. */
export const rolePermissions: TableMapping = {
  table: 'role_capability',
  from: ['role_capability'],
  key: ['role_id', 'cap_name'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY role_id, cap_name) AS id, role_id, cap_name, last_updated ' +
    'FROM role_capability ORDER BY role_id, cap_name',
};

/** Users, with their password hashes as they are: the original's scrypt format is this service's. */
export const users: TableMapping = {
  table: 'tm_user',
  from: ['tm_user'],
  select: () =>
    'SELECT id, username, email, full_name, local_passwd, role, tenant_id, company, address_line1, address_line2, ' +
    'city, state_or_province, postal_code, country, phone_number, public_ssh_key, uid, gid, new_user, ' +
    "COALESCE(ucdn, '') AS ucdn, registration_sent, last_authenticated, last_updated, token FROM tm_user ORDER BY id",
  rules: [
    { rule: 'user without a role', broken: (row) => row.role === null },
    {
      rule: 'password hash not in the SCRYPT format (the user could not sign in)',
      broken: (row) => typeof row.local_passwd === 'string' && !SCRYPT_HASH.test(row.local_passwd),
    },
    tooLong('username', 128),
    tooLong('email', 255),
  ],
};
