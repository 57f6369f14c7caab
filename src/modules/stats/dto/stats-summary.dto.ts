import { GoField } from 'src/common/validation/go-field';
import { GoDecodeError, type GoDecoder, GoStruct } from 'src/common/validation/go-struct';

export interface StatsSummaryBody {
  cdnName: string;
  deliveryServiceName: string;
  statName: string;
  statValue: number;
  summaryTime: Date;
  statDate: string | null;
}

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

/** A string field, or `<field> must be a string` (the original's decoding text, unquoted). */
const text: GoDecoder = (value, at) => {
  if (typeof value !== 'string') {
    throw new GoDecodeError(`${at.path} must be a string`);
  }
  return value;
};

const number: GoDecoder = (value, at) => {
  if (typeof value !== 'number') {
    throw new GoDecodeError(`${at.path} must be a number`);
  }
  return value;
};

/**
 * The timestamps (`statDate`, then `summaryTime`: `decoding: invalid timestamp given for <field>`)
 * and the rules (`validating: 'statName' cannot be blank, 'statValue' cannot be blank`: a
 * `statValue` of 0 is blank, as the original's rule says), once the JSON types are read.
 */
function readSummary(body: StatsSummaryBodyType): string | undefined {
  if (body.statDateText !== undefined) {
    const parsed = parseSummaryTimestamp(body.statDateText);
    if (!parsed) {
      return 'decoding: invalid timestamp given for statDate';
    }
    body.statDate = statDateOf(body.statDateText, parsed);
  }
  const time = parseSummaryTimestamp(body.summaryTimeText);
  if (!time) {
    return 'decoding: invalid timestamp given for summaryTime';
  }
  body.summaryTime = time;
  const problems: string[] = [];
  if (body.statName === '') {
    problems.push("'statName' cannot be blank");
  }
  if (body.statValue === 0) {
    problems.push("'statValue' cannot be blank");
  }
  return problems.length > 0 ? `validating: ${problems.join(', ')}` : undefined;
}

/**
 * The body of POST stats_summary as the original reads it (api.Parse): the JSON types first, as
 * `decoding: …` (the strings, then `statValue`), stopping at the first; then readSummary. An empty
 * `cdnName` or `deliveryServiceName` is `all`.
 */
@GoStruct<StatsSummaryBodyType>('StatsSummary', {
  failure: 'decoding: ',
  withCause: true,
  eofWhenNoBody: true,
  notAnObject: 'decoding: the request body must be a JSON object',
  check: readSummary,
})
export class StatsSummaryBodyType {
  @GoField.decoded(text, { type: 'string', description: "the CDN's name, or `all` (the default)" })
  cdnName = '';

  @GoField.decoded(text, { type: 'string', description: 'a delivery service, or `all` (the default)' })
  deliveryServiceName = '';

  @GoField.decoded(text, { type: 'string' }, { required: true })
  statName = '';

  @GoField.decoded(
    text,
    { type: 'string', description: 'RFC 3339, `YYYY-MM-DD HH:MM:SS±hh` or `YYYY-MM-DD`' },
    { key: 'summaryTime', required: true },
  )
  summaryTimeText = '';

  @GoField.decoded(
    text,
    { type: 'string', description: '`YYYY-MM-DD` (or a timestamp of that day)' },
    { key: 'statDate' },
  )
  statDateText?: string;

  @GoField.decoded(number, { type: 'number' }, { required: true })
  statValue = 0;

  /** Set by readSummary. */
  summaryTime = new Date(NaN);

  statDate: string | null = null;

  /** The summary to store. */
  summary(): StatsSummaryBody {
    return {
      cdnName: this.cdnName === '' ? 'all' : this.cdnName,
      deliveryServiceName: this.deliveryServiceName === '' ? 'all' : this.deliveryServiceName,
      statName: this.statName,
      statValue: this.statValue,
      summaryTime: this.summaryTime,
      statDate: this.statDate,
    };
  }
}
