import { parameterIdentity } from 'src/modules/parameters/parameter.entity';
import { type TableMapping } from 'src/cli/import/mapping';

export const profiles: TableMapping = {
  table: 'profile',
  from: ['profile'],
  select: () =>
    'SELECT id, name, description, type::text AS type, cdn, routing_disabled, last_updated FROM profile ORDER BY id',
};

/** Parameters get this service's identity (name, config file and value: unique here). */
export const parameters: TableMapping = {
  table: 'parameter',
  from: ['parameter'],
  select: () =>
    "SELECT id, name, COALESCE(config_file, '') AS config_file, value, secure, last_updated FROM parameter ORDER BY id",
  convert: (row) => ({
    ...row,
    identity: parameterIdentity(String(row.name), String(row.config_file), String(row.value)),
  }),
};

export const profileParameters: TableMapping = {
  table: 'profile_parameter',
  from: ['profile_parameter'],
  key: ['profile', 'parameter'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY profile, parameter) AS id, profile, parameter, last_updated ' +
    'FROM profile_parameter ORDER BY profile, parameter',
};
