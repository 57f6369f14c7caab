import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * GET /profileparameters: the original's filters (profileId, parameterId) and every field of the
 * response as an order; by parameter id by default, as the original.
 */
export const PROFILE_PARAMETER_LIST: ListSpec = {
  fields: {
    profileId: { column: 'pp.profile', type: 'int' },
    parameterId: { column: 'pp.parameter', type: 'int' },
    parameter: { column: 'pp.parameter', filter: false },
    profile: { column: 'prof.name', filter: false },
    lastUpdated: { column: 'pp.last_updated', filter: false },
  },
  defaultOrder: 'parameter',
  tiebreak: 'pp.id',
};

/**
 * The tables a profile's parameter list is read from: its last change (write or deletion in any of
 * them) answers a conditional GET of profiles/{id}/parameters and profiles/name/{name}/parameters.
 */
export const PROFILE_PARAMETER_TABLES = ['profile', 'parameter', 'profile_parameter'] as const;
