/** One assignment on the wire (lib/go-tc DeliveryServiceServer). */
export interface AssignmentRow {
  server: number;
  deliveryService: number;
  lastUpdated: Date;
}

/** lib/go-tc DeliveryServiceServerResponse: the list with its paging, outside the usual envelope. */
export interface AssignmentListWire {
  orderby: string;
  response: AssignmentRow[];
  size: number;
  limit: number;
}

export function toAssignmentResponse(row: AssignmentRow): AssignmentRow {
  return { server: row.server, deliveryService: row.deliveryService, lastUpdated: row.lastUpdated };
}

/**
 * GET /deliveryserviceserver is written without the usual envelope, as the original's
 * DeliveryServiceServerResponse: the order used, the page number asked for (0 when none) and the
 * page size, around the `response` list.
 */
export function toAssignmentListResponse(
  rows: AssignmentRow[],
  page: { orderby: string; size: number; limit: number },
): AssignmentListWire {
  return {
    orderby: page.orderby,
    response: rows.map(toAssignmentResponse),
    size: page.size,
    limit: page.limit,
  };
}
