import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters (`userID`, `role`, as the original) and orderable fields of GET federations/{id}/users. */
export const FEDERATION_USER_LIST: ListSpec = {
  fields: {
    userID: { column: 'u.id', type: 'int' },
    role: { column: 'r.name' },
    id: { column: 'u.id', type: 'int', filter: false },
    username: { column: 'u.username', filter: false },
    fullName: { column: 'u.full_name', filter: false },
    email: { column: 'u.email', filter: false },
    company: { column: 'u.company', filter: false },
  },
  defaultOrder: 'username',
  tiebreak: 'u.id',
};
