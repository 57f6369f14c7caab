import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * GET /deliveryservice_request_comments: the original's filters (author, authorId,
 * deliveryServiceRequestId, id); default order `xmlId` (that of the request).
 */
export const COMMENT_LIST: ListSpec = {
  fields: {
    author: { column: 'a.username' },
    authorId: { column: 'c.author_id', type: 'int' },
    deliveryServiceRequestId: { column: 'c.deliveryservice_request_id', type: 'int' },
    id: { column: 'c.id', type: 'int' },
    lastUpdated: { column: 'c.last_updated', filter: false },
    value: { column: 'c.value', filter: false },
    xmlId: { column: 'r.xml_id', filter: false },
  },
  defaultOrder: 'xmlId',
  tiebreak: 'c.id',
};
