import { BadRequestException, NotAcceptableException } from '@nestjs/common';
import type { Response } from 'express';
import { type ParamRule, TextParam } from 'src/common/request-input/param-rules';

/**
 * The keys GET cache_stats and GET deliveryservice_stats read, each as a text the route's named
 * functions check (queryParams, requireParams, parseTrafficStatsQuery): the original first names
 * every missing required key, then checks the others in its own order, each value with `.json`
 * stripped. The declaration says what each key is for the OpenAPI documents.
 */
const text = (type: ParamRule['type'] = 'string', values?: readonly string[]) =>
  TextParam({ documents: { type, values } });
export const TRAFFIC_STATS_QUERY = {
  metricType: text(),
  startDate: text(),
  endDate: text(),
  cdnName: text(),
  deliveryServiceName: text(),
  deliveryService: text(),
  interval: text(),
  exclude: text('string', ['series', 'summary']),
  limit: text('integer'),
  offset: text('integer'),
  orderby: text('string', ['time']),
};

/**
 * The query of GET cache_stats and GET deliveryservice_stats, read as the original reads it
 * (traffic_ops_golang/trafficstats/util.go, docs/original-behaviour.md#traffic-stats): each
 * parameter's first value, a value ending in `.json` without it, and each check in the original's
 * order with its text.
 */
export type QueryParams = Record<string, string>;

/** Each declared query parameter (its first value, TRAFFIC_STATS_QUERY), `.json` stripped as the original's parameter reader does. */
export function queryParams(query: Partial<Record<string, string>>): QueryParams {
  const params: QueryParams = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) {
      params[key] = value.endsWith('.json') ? value.slice(0, -'.json'.length) : value;
    }
  }
  return params;
}

/** 400 `required parameters missing: …` naming, in the given order, those absent. */
export function requireParams(params: QueryParams, required: readonly string[]): void {
  const missing = required.filter((name) => !(name in params));
  if (missing.length > 0) {
    throw new BadRequestException(
      `required parameters missing: missing required parameters: ${missing.join(', ')}`,
    );
  }
}

/** What a Traffic Stats request asks for, common to both routes. Times are nanoseconds since the epoch. */
export interface TrafficStatsQuery {
  start: bigint;
  end: bigint;
  /** An InfluxQL duration literal, `^\d+[mhdw]$`. */
  interval: string;
  /** The offset of the time buckets (the original's OffsetString), e.g. `30s`. */
  groupOffset: string;
  limit?: bigint;
  offset?: bigint;
  orderByTime: boolean;
  excludeSeries: boolean;
  excludeSummary: boolean;
  /** Series times as nanoseconds since the epoch rather than RFC 3339. */
  unix: boolean;
}

const INT64_MAX = 2n ** 63n - 1n;
/** The times InfluxDB can store (models.MinNanoTime, models.MaxNanoTime). */
const MIN_NANO_TIME = -(2n ** 63n) + 2n;
const MAX_NANO_TIME = 2n ** 63n - 2n;
const SECOND = 1000000000n;
const DURATION_UNIT_SECONDS: Record<string, bigint> = { m: 60n, h: 3600n, d: 86400n, w: 604800n };
const INTERVAL = /^(\d+)([mhdw])$/;
const DEFAULT_INTERVAL = '1m';
const INTERVAL_TEXT = 'interval: must be a valid InfluxQL duration literal (resolution no less than minute)';

/**
 * The common parameters, checked in the original's order: the Accept header (406), `limit`,
 * `offset`, `orderby`, `startDate`, `endDate`, `interval`, `exclude`. Where the original passes a
 * value InfluxDB then refuses (a number beyond 64 bits, a time InfluxDB cannot hold, a zero or
 * overflowing interval) the same 400 answers it (docs/decisions.md#d107).
 */
export function parseTrafficStatsQuery(params: QueryParams, accept: string | undefined): TrafficStatsQuery {
  const unix = negotiateTimestamps(accept);
  const limit = naturalParam(params.limit, 'Invalid limit!');
  const offset = naturalParam(params.offset, 'Invalid offset!');
  if (params.orderby !== undefined && params.orderby !== 'time') {
    throw new BadRequestException("Invalid orderby! Can only be 'time'");
  }
  const start = parseStatsTime(params.startDate);
  if (start === undefined) {
    throw new BadRequestException('Invalid startDate!');
  }
  const end = parseStatsTime(params.endDate);
  if (end === undefined) {
    throw new BadRequestException('Invalid endDate!');
  }
  const interval = params.interval ?? DEFAULT_INTERVAL;
  const match = INTERVAL.exec(interval);
  const seconds = match ? BigInt(match[1]) * DURATION_UNIT_SECONDS[match[2]] : 0n;
  if (seconds <= 0n || seconds * SECOND > INT64_MAX) {
    throw new BadRequestException(INTERVAL_TEXT);
  }
  let excludeSeries = false;
  let excludeSummary = false;
  if (params.exclude !== undefined) {
    if (params.exclude === 'series') {
      excludeSeries = true;
    } else if (params.exclude === 'summary') {
      excludeSummary = true;
    } else {
      throw new BadRequestException("Invalid exclude! Must be 'series' or 'summary'");
    }
  }
  return {
    start,
    end,
    interval,
    // Whole seconds since the epoch (truncated toward zero) modulo the interval, as Go computes it.
    groupOffset: `${(start / SECOND) % seconds}s`,
    limit,
    offset,
    orderByTime: params.orderby === 'time',
    excludeSeries,
    excludeSummary,
    unix,
  };
}

/** An unsigned decimal the original accepts (strconv.ParseUint) that InfluxQL can also read (int64). */
function naturalParam(raw: string | undefined, text: string): bigint | undefined {
  if (raw === undefined) {
    return undefined;
  }
  if (!/^\d+$/.test(raw) || BigInt(raw) > INT64_MAX) {
    throw new BadRequestException(text);
  }
  return BigInt(raw);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}:\d{2})$/;
const TRAFFIC_OPS_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?([+-]\d{2})$/;
const DECIMAL_INT = /^[+-]?\d+$/;

/**
 * A time in one of the original's three forms (RFC 3339 with or without fractional seconds, an
 * integer count of nanoseconds since the epoch, or the `2006-01-02 15:04:05-07` form of
 * `lastUpdated`), as nanoseconds since the epoch; undefined when it is none of them, names a date
 * that does not exist, or lies outside what InfluxDB can store.
 */
export function parseStatsTime(raw: string | undefined): bigint | undefined {
  if (raw === undefined) {
    return undefined;
  }
  let ns: bigint | undefined;
  const rfc = RFC3339.exec(raw);
  if (rfc) {
    ns = civilTime(rfc.slice(1, 8), rfc[8] === 'Z' ? '+00:00' : rfc[8]);
  } else if (DECIMAL_INT.test(raw)) {
    ns = BigInt(raw);
    if (ns > INT64_MAX || ns < -INT64_MAX - 1n) {
      return undefined;
    }
  } else {
    const to = TRAFFIC_OPS_TIME.exec(raw);
    ns = to ? civilTime(to.slice(1, 8), `${to[8]}:00`) : undefined;
  }
  return ns !== undefined && ns >= MIN_NANO_TIME && ns <= MAX_NANO_TIME ? ns : undefined;
}

/** Nanoseconds since the epoch of a checked calendar date and time at a `±hh:mm` offset. */
function civilTime(fields: (string | undefined)[], zone: string): bigint | undefined {
  const [year, month, day, hour, minute, second] = fields.slice(0, 6).map(Number);
  const fraction = fields[6] ?? '';
  const zoneHours = Number(zone.slice(1, 3));
  const zoneMinutes = Number(zone.slice(4, 6));
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  if (zoneHours > 23 || zoneMinutes > 59) {
    return undefined;
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || day < 1) {
    return undefined;
  }
  date.setUTCHours(hour, minute, second, 0);
  const nanos = BigInt(fraction.slice(0, 9).padEnd(9, '0') || '0');
  const offsetSeconds = BigInt((zoneHours * 60 + zoneMinutes) * 60) * (zone.startsWith('-') ? -1n : 1n);
  return (BigInt(date.getTime()) / 1000n - offsetSeconds) * SECOND + nanos;
}

/** A media range of an Accept header: its lower-cased `type/subtype` and parameters. */
interface MediaRange {
  type: string;
  subtype: string;
  params: Map<string, string>;
}

/** Go's mime token: printable ASCII but space and the MIME specials. */
const TOKEN = /^[!#$%&'*+\-.^_`{|}~0-9A-Za-z]+/;

/** Go's mime.ParseMediaType, as far as the negotiation needs it; undefined when it would fail. */
function parseMediaRange(text: string): MediaRange | undefined {
  const semicolon = text.indexOf(';');
  const base = (semicolon < 0 ? text : text.slice(0, semicolon)).trim().toLowerCase();
  const [type, subtype, ...rest] = base.split('/');
  const isToken = (part: string) => TOKEN.exec(part)?.[0] === part;
  if (!isToken(type) || (subtype !== undefined && !isToken(subtype)) || rest.length > 0) {
    return undefined;
  }
  const params = new Map<string, string>();
  let remaining = semicolon < 0 ? '' : text.slice(semicolon);
  while (true) {
    remaining = remaining.trimStart();
    if (remaining === '') {
      break;
    }
    if (!remaining.startsWith(';')) {
      return undefined;
    }
    remaining = remaining.slice(1).trimStart();
    if (remaining === '') {
      break;
    }
    const key = TOKEN.exec(remaining)?.[0];
    if (key === undefined) {
      return undefined;
    }
    remaining = remaining.slice(key.length).trimStart();
    if (!remaining.startsWith('=')) {
      return undefined;
    }
    remaining = remaining.slice(1).trimStart();
    let value: string;
    const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(remaining);
    if (quoted) {
      value = quoted[1].replace(/\\(.)/g, '$1');
      remaining = remaining.slice(quoted[0].length);
    } else {
      const token = TOKEN.exec(remaining)?.[0];
      if (token === undefined) {
        return undefined;
      }
      value = token;
      remaining = remaining.slice(token.length);
    }
    const name = key.toLowerCase();
    if (params.has(name)) {
      return undefined;
    }
    params.set(name, value);
  }
  return { type, subtype: subtype ?? '', params };
}

/** The `q` of a media range (1 when absent or not a number, as the original reads it). */
function quality(range: MediaRange): number {
  const q = range.params.get('q');
  return q !== undefined && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(q) ? Number(q) : 1;
}

/** lib/go-rfc MimeType.Less: lower quality, then less specific, then fewer parameters. */
function less(a: MediaRange, b: MediaRange): boolean {
  const qa = quality(a);
  const qb = quality(b);
  if (qa !== qb) {
    return qa < qb;
  }
  if (a.subtype === '*') {
    if (b.subtype !== '*') {
      return true;
    }
    if (a.type === '*') {
      if (b.type !== '*') {
        return true;
      }
    } else if (b.type === '*') {
      return false;
    }
  } else if (b.subtype === '*') {
    return false;
  }
  return a.params.size < b.params.size;
}

/** Whether `application/json; timestamp=<form>` satisfies a client's media range (MimeType.Satisfy). */
function satisfies(form: 'rfc' | 'unix', range: MediaRange): boolean {
  if (range.type === '*' && range.subtype === '*') {
    return true;
  }
  if (range.type !== '*' && range.subtype === '*') {
    return range.type === 'application';
  }
  if (range.type !== 'application' || range.subtype !== 'json') {
    return false;
  }
  for (const [key, value] of range.params) {
    if (key !== 'q' && !(key === 'timestamp' && value === form)) {
      return false;
    }
  }
  return true;
}

/**
 * Whether the series' times are wanted as nanoseconds (`application/json;timestamp=unix`) rather
 * than RFC 3339 (`timestamp=rfc`, the default). The media ranges are ranked as the original ranks
 * them (an insertion sort by its own comparison, which puts equal ranges in reverse order); a
 * header it cannot parse is ignored, one that accepts neither form answers 406.
 */
export function negotiateTimestamps(accept: string | undefined): boolean {
  if (accept === undefined || accept === '') {
    return false;
  }
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const range = parseMediaRange(part);
    if (range === undefined) {
      return false;
    }
    ranges.push(range);
  }
  for (let i = 1; i < ranges.length; i++) {
    for (let j = i; j > 0 && !less(ranges[j], ranges[j - 1]); j--) {
      [ranges[j], ranges[j - 1]] = [ranges[j - 1], ranges[j]];
    }
  }
  for (const range of ranges) {
    if (satisfies('rfc', range)) {
      return false;
    }
    if (satisfies('unix', range)) {
      return true;
    }
  }
  throw new NotAcceptableException(`Failed to negotiate content; cannot produce output satisfying ${accept}`);
}

/** The answer depends on the Accept header (the timestamps' form): caches must key on it. */
export function varyOnAccept(res: Response): void {
  res.setHeader('Vary', 'Accept, Accept-Encoding');
}
