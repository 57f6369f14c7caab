import { byVersion } from 'src/common/wire/by-version';

export interface CommentRow {
  id: number;
  authorId: number;
  author: string;
  deliveryServiceRequestId: number;
  value: string;
  xmlId: string;
  lastUpdated: Date;
}

/** 3.x/4.x `tc.DeliveryServiceRequestComment`: `lastUpdated` in the `TimeNoMod` form. */
export interface DeliveryServiceRequestCommentV3 {
  authorId: number;
  author: string;
  deliveryServiceRequestId: number;
  id: number;
  lastUpdated: Date;
  value: string;
  xmlId: string;
}

/**
 * 5.0 `tc.DeliveryServiceRequestCommentV5`: the same fields; `lastUpdated` is RFC 3339 (the
 * controller's `@WireTimes`).
 */
export type DeliveryServiceRequestCommentV5 = DeliveryServiceRequestCommentV3;

const toV3 = (c: CommentRow): DeliveryServiceRequestCommentV3 => ({
  authorId: c.authorId,
  author: c.author,
  deliveryServiceRequestId: c.deliveryServiceRequestId,
  id: c.id,
  lastUpdated: c.lastUpdated,
  value: c.value,
  xmlId: c.xmlId,
});

/** Every version's shape is the same; 5.0 writes `lastUpdated` in RFC 3339 (the route's `@WireTimes`). */
export const toCommentResponse = byVersion<CommentRow, DeliveryServiceRequestCommentV3>({ '3.0': toV3 });
