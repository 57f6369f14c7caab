/**
 * The original's Go formats that its bodies and texts use (the jobs and DNSSEC routes, GoField): a time
 * as Go prints it in alert texts, RFC 3339 and the other time forms bodies accept, and Go duration
 * strings (3.x `ttl`).
 */

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** A time as Go's `time.Time.String()` writes a UTC time: `2021-11-09 01:02:03.5 +0000 UTC`. */
export function goTimeString(date: Date): string {
  const ms = date.getUTCMilliseconds();
  const fraction = ms === 0 ? '' : `.${pad(ms, 3)}`.replace(/0+$/, '');
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${fraction} +0000 UTC`
  );
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const TIME_LAYOUT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})([+-]\d{2})$/;
const LEGACY_LAYOUT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function validDate(parts: string[]): boolean {
  const [year, month, day, hour, minute, second] = parts.map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second < 60
  );
}

/** Go's `time.Parse(time.RFC3339, s)`; undefined when it fails. */
export function parseRfc3339(text: string): Date | undefined {
  const match = RFC3339.exec(text);
  if (!match || !validDate(match.slice(1, 7))) {
    return undefined;
  }
  const date = new Date(text.replace(/\.(\d{3})\d+/, '.$1'));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * A 3.x `startTime` (lib/go-tc Time): milliseconds since the epoch (a JSON integer or a string of
 * one), RFC 3339, `YYYY-MM-DD HH:MM:SS-07` or `YYYY-MM-DD HH:MM:SS` (UTC). The text `null` is the zero
 * time. Undefined when none of these.
 */
export function parseLegacyTime(value: unknown): Date | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? new Date(Math.trunc(value / 1000) * 1000) : undefined;
  }
  if (typeof value !== 'string') {
    return undefined;
  }
  if (value === 'null') {
    return new Date('0001-01-01T00:00:00Z');
  }
  if (/^[+-]?\d+$/.test(value)) {
    const ms = Number(value);
    return Number.isSafeInteger(ms) ? new Date(Math.trunc(ms / 1000) * 1000) : undefined;
  }
  const rfc = parseRfc3339(value);
  if (rfc) {
    return rfc;
  }
  const withZone = TIME_LAYOUT.exec(value);
  if (withZone && validDate(withZone.slice(1, 7))) {
    return new Date(`${value.slice(0, 10)}T${value.slice(11, 19)}${withZone[7]}:00`);
  }
  const legacy = LEGACY_LAYOUT.exec(value);
  if (legacy && validDate(legacy.slice(1, 7))) {
    return new Date(`${value.slice(0, 10)}T${value.slice(11, 19)}Z`);
  }
  return undefined;
}

const UNITS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};
const MAX_DURATION_NS = 2 ** 63 - 1;

/** Go's `time.ParseDuration` (`2h45m`, `1.5h`, `90s`), in nanoseconds; undefined when it fails. */
export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') {
    return 0;
  }
  if (rest === '') {
    return undefined;
  }
  let total = 0;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    if (number[0] === '' || number[0] === '.') {
      return undefined;
    }
    rest = rest.slice(number[0].length);
    const unit = /^[^\d.]+/.exec(rest);
    if (!unit || UNITS[unit[0]] === undefined) {
      return undefined;
    }
    rest = rest.slice(unit[0].length);
    total += Number(`${number[1] || '0'}.${number[2] ?? ''}0`) * UNITS[unit[0]];
    if (total > MAX_DURATION_NS) {
      return undefined;
    }
  }
  return negative ? -total : total;
}
