import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * GET deliveryservices/{id}/regexes: the original filters by the regex `id` and pages, but always
 * orders by the set number (docs/original-behaviour.md#deliveryservices-regexes).
 */
export const DELIVERY_SERVICE_REGEX_LIST: ListSpec = {
  fields: {
    id: { column: 'r.id', type: 'int', filter: true },
  },
  defaultOrder: 'id',
};
