import { rfc3339 } from 'src/common/wire/by-version';

/** A notification as the service reads it: the CDN and the author by name. */
export interface CdnNotificationRow {
  id: number;
  cdn: string;
  lastUpdated: Date;
  notification: string;
  user: string;
}

/** The original's `tc.CDNNotification` (4.0+); `lastUpdated` is a Go `time.Time` (RFC 3339). */
export interface CdnNotificationV4 {
  id: number;
  cdn: string;
  lastUpdated: string;
  notification: string;
  user: string;
}

export function toCdnNotificationResponse(row: CdnNotificationRow): CdnNotificationV4 {
  return {
    id: row.id,
    cdn: row.cdn,
    lastUpdated: rfc3339(row.lastUpdated),
    notification: row.notification,
    user: row.user,
  };
}
