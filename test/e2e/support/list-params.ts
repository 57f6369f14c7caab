/** Paging parameters every list refuses, with the alert of each (docs/api-conventions.md#list-queries). */
export const INVALID_PAGING: [string, string][] = [
  ['limit=-2', 'limit parameter must be bigger than -1'],
  ['limit=ten', 'limit parameter must be bigger than -1'],
  ['limit=1&offset=0', 'offset parameter must be a positive integer'],
  ['limit=1&offset=x', 'offset parameter must be a positive integer'],
  ['limit=1&page=0', 'page parameter must be a positive integer'],
  ['limit=1&page=x', 'page parameter must be a positive integer'],
];
