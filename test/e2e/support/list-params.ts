/**
 * Paging parameters every list refuses, with the alert of each (docs/api-conventions.md#list-queries),
 * and the bounds of src/common/list-query (a 20-digit limit used to reach SQL as `1e20`).
 */
export const INVALID_PAGING: [string, string][] = [
  ['limit=-2', 'limit parameter must be bigger than -1'],
  ['limit=ten', 'limit parameter must be bigger than -1'],
  ['limit=1&offset=0', 'offset parameter must be a positive integer'],
  ['limit=1&offset=x', 'offset parameter must be a positive integer'],
  ['limit=1&page=0', 'page parameter must be a positive integer'],
  ['limit=1&page=x', 'page parameter must be a positive integer'],
  ['limit=99999999999999999999', 'limit parameter must be no greater than 2147483647'],
  ['limit=2147483648', 'limit parameter must be no greater than 2147483647'],
  ['limit=1&offset=99999999999999999999', 'offset parameter must be no greater than 2147483647'],
  ['limit=1&page=99999999999999999999', 'page parameter must be no greater than 2147483648'],
  ['limit=1000&page=2147485', 'page parameter must be no greater than 2147484'],
];
