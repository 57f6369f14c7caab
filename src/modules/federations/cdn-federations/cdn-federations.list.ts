import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters and orderable fields of GET cdns/{name}/federations (default order: cname). */
export const CDN_FEDERATION_LIST: ListSpec = {
  fields: {
    id: { column: 'federation.id', type: 'int' },
    cname: { column: 'federation.cname' },
    ttl: { column: 'federation.ttl', type: 'int', filter: false },
    description: { column: 'federation.description', filter: false },
    lastUpdated: { column: 'federation.last_updated', filter: false },
    xmlID: { column: 'ds.xml_id', since: '5.0' },
    dsID: { column: 'ds.id', type: 'int', since: '5.0' },
  },
  defaultOrder: 'cname',
  tiebreak: 'federation.id',
};
