import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * GET /deliveryservice_requests: the original's filters (assignee, assigneeId, author, authorId,
 * changeType, createdAt, id, status, and xmlId — of the requested or the original delivery
 * service); default order `xmlId`.
 */
export const DELIVERY_SERVICE_REQUEST_LIST: ListSpec = {
  fields: {
    assignee: { column: 's.username' },
    assigneeId: { column: 'r.assignee_id', type: 'int' },
    author: { column: 'a.username' },
    authorId: { column: 'r.author_id', type: 'int' },
    changeType: { column: 'r.change_type' },
    createdAt: { column: 'r.created_at' },
    id: { column: 'r.id', type: 'int' },
    lastUpdated: { column: 'r.last_updated', filter: false },
    status: { column: 'r.status' },
    xmlId: { column: 'r.xml_id' },
  },
  defaultOrder: 'xmlId',
  tiebreak: 'r.id',
};
