import { byVersion, rfc3339 } from 'src/common/wire/by-version';

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

/** 5.0 `tc.DeliveryServiceRequestCommentV5`: `lastUpdated` is RFC 3339. */
export type DeliveryServiceRequestCommentV5 = Omit<DeliveryServiceRequestCommentV3, 'lastUpdated'> & {
  lastUpdated: string;
};

const toV3 = (c: CommentRow): DeliveryServiceRequestCommentV3 => ({
  authorId: c.authorId,
  author: c.author,
  deliveryServiceRequestId: c.deliveryServiceRequestId,
  id: c.id,
  lastUpdated: c.lastUpdated,
  value: c.value,
  xmlId: c.xmlId,
});

export const toCommentResponse = byVersion<
  CommentRow,
  DeliveryServiceRequestCommentV3 | DeliveryServiceRequestCommentV5
>({
  '3.0': toV3,
  '5.0': (c) => ({ ...toV3(c), lastUpdated: rfc3339(c.lastUpdated) }),
});
