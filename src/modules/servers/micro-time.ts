/**
 * A server's update and apply times keep microseconds, as the original's `timestamptz` columns do
 * (docs/decisions.md#d205). A JavaScript Date holds milliseconds only, so these times travel as
 * their stored text instead: `YYYY-MM-DD HH:MM:SS.ffffff`, in UTC, always six fractional digits.
 * Being of one width, two such texts compare (`<`, `>`) as the times they name.
 */
export type MicroTime = string & { readonly microTime: unique symbol };

/** The epoch: a server's times before anything was queued or applied. */
export const EPOCH_MICRO = '1970-01-01 00:00:00.000000' as MicroTime;

/** A UTC date-time text as the databases give it: `T` or space, up to nine fractional digits, `Z` or none. */
const STORED = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(?:Z|[+-]00:?00)?$/;

/** A MicroTime's own form, which is read as it is (`test` builds no match). */
const CANONICAL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/;
const MICRO_TIME_LENGTH = EPOCH_MICRO.length;
const ZERO = 0x30;

/** The time of a Date, to the millisecond. */
export function microTimeOf(date: Date): MicroTime {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000` as MicroTime;
}

/**
 * A time column as read from either database: text (SQLite's column, MySQL's DATE_FORMAT with `%f`)
 * with fewer or more fractional digits than six (a row written before the microseconds were kept has
 * three), or a Date; null stays null.
 */
export function microTimeFromDb(value: Date | string | null | undefined): MicroTime | null {
  if (value === null || value === undefined) {
    return null;
  }
  if (value instanceof Date) {
    return microTimeOf(value);
  }
  if (CANONICAL.test(value)) {
    return value as MicroTime; // already the form (MySQL's DATE_FORMAT with %f): nothing to rebuild
  }
  const m = STORED.exec(value);
  if (!m) {
    return microTimeOf(new Date(value));
  }
  const [, day, time, fraction = ''] = m;
  return `${day} ${time}.${fraction.padEnd(6, '0').slice(0, 6)}` as MicroTime;
}

/**
 * A time given as RFC 3339 parts (fraction with its dot, zone `Z` or `±HH:MM`), rounded to the
 * microsecond as PostgreSQL rounds a timestamp's input (to the nearest, halves to even); undefined
 * when the parts name no time.
 */
export function microTimeOfParts(dateTime: string, fraction: string, zone: string): MicroTime | undefined {
  const digits = fraction.replace('.', '').padEnd(9, '0');
  let micros = Number(digits.slice(0, 6));
  const rest = Number(digits.slice(6, 9));
  if (rest > 500 || (rest === 500 && micros % 2 === 1)) {
    micros += 1;
  }
  const whole = new Date(`${dateTime}${zone}`);
  if (Number.isNaN(whole.getTime())) {
    return undefined;
  }
  const ms = whole.getTime() + Math.floor(micros / 1000);
  const text = microTimeOf(new Date(ms));
  return `${text.slice(0, 23)}${String(micros % 1000).padStart(3, '0')}` as MicroTime;
}

/**
 * The time as the original's JSON writes it (Go's time.RFC3339Nano, in UTC): the fraction without
 * its trailing zeros, none at all on a whole second, and `Z`.
 */
export function formatMicroTime(time: MicroTime): string {
  let end = MICRO_TIME_LENGTH; // after the fraction's last digit other than 0, or before its dot
  while (end > 20 && time.charCodeAt(end - 1) === ZERO) {
    end--;
  }
  return time.slice(0, 10) + 'T' + time.slice(11, end === 20 ? 19 : end) + 'Z';
}

/** A time as the original's JSON writes it (see formatMicroTime), or null. */
export function microTimeWire(time: MicroTime | null): string | null {
  return time === null ? null : formatMicroTime(time);
}

/** Whether `queued` is later than `applied` (updates pending); a missing time is the epoch. */
export function isLater(queued: MicroTime | null, applied: MicroTime | null): boolean {
  return (queued ?? EPOCH_MICRO) > (applied ?? EPOCH_MICRO);
}

/** A server's four update and apply times. */
export interface UpdateTimes {
  configUpdateTime: MicroTime | null;
  configApplyTime: MicroTime | null;
  revalidateUpdateTime: MicroTime | null;
  revalidateApplyTime: MicroTime | null;
}
