import { rfc3339 } from 'src/common/wire/by-version';
import type { DeliveryServiceWire } from 'src/modules/delivery-services/core/delivery-service.response';

/**
 * A delivery service inside a request: as the client sent it (`requested`), or as it was when the
 * request closed, both kept as JSON and parsed back; an open request's `original` is the live one.
 */
export type StoredDeliveryService = Record<string, unknown>;

/** A request as read, with its users' names and its delivery services as JSON objects. */
export interface DeliveryServiceRequestRow {
  id: number;
  assignee: string | null;
  author: string;
  lastEditedBy: string;
  changeType: string;
  status: string;
  createdAt: Date;
  lastUpdated: Date;
  requested: StoredDeliveryService | null;
  original: DeliveryServiceWire | StoredDeliveryService | null;
}

/**
 * 4.0, 4.1 and 5.0 `tc.DeliveryServiceRequestV40/V41/V5`: timestamps are RFC 3339 (Go `time.Time`);
 * `original` and `requested` are left out when there is none. The delivery services inside are those
 * of the version (docs/decisions.md#d84).
 */
export interface DeliveryServiceRequestV4 {
  assignee: string | null;
  author: string;
  changeType: string;
  createdAt: string;
  id: number;
  lastEditedBy: string;
  lastUpdated: string;
  original?: DeliveryServiceWire | StoredDeliveryService;
  requested?: StoredDeliveryService;
  status: string;
}

export type DeliveryServiceRequestV5 = DeliveryServiceRequestV4;

export function toDeliveryServiceRequestResponse(row: DeliveryServiceRequestRow): DeliveryServiceRequestV4 {
  return {
    assignee: row.assignee,
    author: row.author,
    changeType: row.changeType,
    createdAt: rfc3339(row.createdAt),
    id: row.id,
    lastEditedBy: row.lastEditedBy,
    lastUpdated: rfc3339(row.lastUpdated),
    ...(row.original ? { original: row.original } : {}),
    ...(row.requested ? { requested: row.requested } : {}),
    status: row.status,
  };
}
