import { rfc3339 } from 'src/common/wire/by-version';

/** A lock as the service reads it: the CDN, its holder and the users it is shared with, by name. */
export interface CdnLockRow {
  userName: string;
  cdn: string;
  message: string | null;
  soft: boolean;
  sharedUserNames: string[] | null;
  lastUpdated: Date;
}

/** The original's `tc.CDNLock` (4.0+); `lastUpdated` is a Go `time.Time` (RFC 3339). */
export interface CdnLockV4 {
  userName: string;
  cdn: string;
  message: string | null;
  soft: boolean;
  sharedUserNames: string[] | null;
  lastUpdated: string;
}

export function toCdnLockResponse(row: CdnLockRow): CdnLockV4 {
  return {
    userName: row.userName,
    cdn: row.cdn,
    message: row.message,
    soft: row.soft,
    sharedUserNames: row.sharedUserNames,
    lastUpdated: rfc3339(row.lastUpdated),
  };
}
