import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * Filters and orderable fields of GET federations/{id}/deliveryservices: the original's `dsID`
 * (filter, and `orderby=dsID` sorts by delivery service id) plus the fields of the response.
 */
export const FEDERATION_DS_LIST: ListSpec = {
  fields: {
    dsID: { column: 'ds.id', type: 'int' },
    id: { column: 'ds.id', type: 'int', filter: false },
    xmlId: { column: 'ds.xml_id', filter: false },
    cdn: { column: 'c.name', filter: false },
    type: { column: 't.name', filter: false },
  },
  defaultOrder: 'xmlId',
  tiebreak: 'ds.id',
};
