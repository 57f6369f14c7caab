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
