/**
 * The timestamp formats of the wire (docs/decisions.md#d4): `YYYY-MM-DD HH:MM:SS+00` for `lastUpdated`
 * everywhere, RFC 3339 with fractional seconds where a route says so.
 */
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function formatTrafficOpsTime(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+00`
  );
}

export function formatRfc3339(date: Date): string {
  return date.toISOString();
}

/** Raw SQL results carry DATETIME values as strings on SQLite and as Dates on MySQL. */
export function toDate(value: Date | string): Date {
  if (value instanceof Date) {
    return value;
  }
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}
