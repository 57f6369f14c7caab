import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import type { BodyContext } from 'src/common/validation/valid-body';

export interface StatsSummaryBody {
  cdnName: string;
  deliveryServiceName: string;
  statName: string;
  statValue: number;
  summaryTime: Date;
  statDate: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * A timestamp as the original reads one here: RFC 3339, `YYYY-MM-DD HH:MM:SS±hh` or `YYYY-MM-DD`
 * (midnight UTC); undefined when it is none of them.
 */
export function parseSummaryTimestamp(text: string): Date | undefined {
  const rfc = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
  const legacy = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})([+-]\d{2})$/.exec(text);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  let iso: string | undefined;
  let parts: RegExpExecArray | null = null;
  if (rfc) {
    parts = rfc;
    iso = text.toUpperCase();
  } else if (legacy) {
    parts = legacy;
    iso = `${legacy[1]}-${legacy[2]}-${legacy[3]}T${legacy[4]}:${legacy[5]}:${legacy[6]}${legacy[7]}:00`;
  } else if (day) {
    parts = day;
    iso = `${text}T00:00:00Z`;
  }
  if (!parts || iso === undefined) {
    return undefined;
  }
  const [year, month, date] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const check = new Date(Date.UTC(year, month - 1, date));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) {
    return undefined;
  }
  if (parts.length > 4 && (Number(parts[4]) > 23 || Number(parts[5]) > 59 || Number(parts[6]) > 59)) {
    return undefined;
  }
  const parsed = new Date(iso);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

/** The calendar date a stat date names, `YYYY-MM-DD` (as written, in its own offset). */
function statDateOf(text: string, parsed: Date): string {
  const day = /^(\d{4}-\d{2}-\d{2})/.exec(text);
  return day
    ? day[1]
    : `${parsed.getUTCFullYear()}-${pad(parsed.getUTCMonth() + 1)}-${pad(parsed.getUTCDate())}`;
}

/**
 * The body of POST stats_summary as the original reads it (api.Parse): decoding problems as
 * `decoding: …` (a `statDate`, then a `summaryTime`, that is no timestamp: `decoding: invalid
 * timestamp given for <field>`), then `validating: 'statName' cannot be blank, 'statValue' cannot
 * be blank` (a `statValue` of 0 is blank, as the original's rule says). An empty `cdnName` or
 * `deliveryServiceName` is `all`.
 */
export function parseStatsSummaryBody(body: unknown, present: boolean): StatsSummaryBody {
  const decoding = (problem: string) => new BadRequestException(`decoding: ${problem}`);
  if (!present) {
    throw decoding('EOF');
  }
  if (!isObject(body)) {
    throw decoding('the request body must be a JSON object');
  }
  for (const field of ['cdnName', 'deliveryServiceName', 'statName', 'summaryTime', 'statDate']) {
    const value = body[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      throw decoding(`${field} must be a string`);
    }
  }
  const { cdnName, deliveryServiceName, statName, statValue, summaryTime, statDate } = body as Record<
    string,
    string | number | null | undefined
  >;
  if (statValue !== undefined && statValue !== null && typeof statValue !== 'number') {
    throw decoding('statValue must be a number');
  }
  let date: string | null = null;
  if (typeof statDate === 'string') {
    const parsed = parseSummaryTimestamp(statDate);
    if (!parsed) {
      throw decoding('invalid timestamp given for statDate');
    }
    date = statDateOf(statDate, parsed);
  }
  const time = parseSummaryTimestamp(typeof summaryTime === 'string' ? summaryTime : '');
  if (!time) {
    throw decoding('invalid timestamp given for summaryTime');
  }
  const problems: string[] = [];
  if (typeof statName !== 'string' || statName === '') {
    problems.push("'statName' cannot be blank");
  }
  if (typeof statValue !== 'number' || statValue === 0) {
    problems.push("'statValue' cannot be blank");
  }
  if (problems.length > 0) {
    throw new BadRequestException(`validating: ${problems.join(', ')}`);
  }
  return {
    cdnName: typeof cdnName === 'string' && cdnName !== '' ? cdnName : 'all',
    deliveryServiceName:
      typeof deliveryServiceName === 'string' && deliveryServiceName !== '' ? deliveryServiceName : 'all',
    statName: statName as string,
    statValue: statValue as number,
    summaryTime: time,
    statDate: date,
  };
}

/** The body class of POST stats_summary, read by parseStatsSummaryBody. */
export class StatsSummaryBodyType {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      cdnName: { type: 'string', description: "the CDN's name, or `all` (the default)" },
      deliveryServiceName: { type: 'string', description: 'a delivery service, or `all` (the default)' },
      statName: { type: 'string' },
      statValue: { type: 'number' },
      summaryTime: { type: 'string', description: 'RFC 3339, `YYYY-MM-DD HH:MM:SS±hh` or `YYYY-MM-DD`' },
      statDate: { type: 'string', description: '`YYYY-MM-DD` (or a timestamp of that day)' },
    },
    required: ['statName', 'statValue', 'summaryTime'],
  };
  static readonly parse = (raw: unknown, { present }: BodyContext): StatsSummaryBody =>
    parseStatsSummaryBody(raw, present);
}
