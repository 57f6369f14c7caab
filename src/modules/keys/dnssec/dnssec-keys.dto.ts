import { GoField } from 'src/common/validation/go-field';
import { GoDecodeError, GoStruct } from 'src/common/validation/go-struct';
import { parseRfc3339 } from 'src/common/validation/go-formats';

/**
 * The bodies of the DNSSEC key routes, decoded as the original's Go structs decode them
 * (docs/original-behaviour.md#dnssec-keys): fields matched by name (case-insensitively, as Go's
 * decoder does), a missing or null field left unset, the first decoding error in document order
 * answered as `parsing request: decoding: …`, then the checks as `parsing request: validating: …`.
 */

/** The most seconds a DNS TTL may hold (RFC 2181 §8). */
export const MAX_TTL = 2_147_483_647;
/** The most days a key may live here: its expiration must stay a date (docs/decisions.md#d110). */
export const MAX_EXPIRATION_DAYS = 1_000_000;
/** The furthest a date may be from 1970 in seconds (what a JavaScript Date holds). */
const MAX_UNIX_SECONDS = 8_640_000_000_000;

const DECODING = 'parsing request: decoding: ';
const VALIDATING = 'parsing request: validating: ';

const pad = (n: string) => n.padStart(2, '0');

/**
 * tc.CDNDNSSECGenerateReqDate: Unix seconds (a number or a string), RFC 3339, or the old
 * `2006-01-02 15:04:05` and `2006-01-02+15:04:05` forms (UTC). Unix seconds.
 */
function generateReqDate(value: unknown): number {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  if (/^[+-]?\d+$/.test(text)) {
    const seconds = Number(text);
    if (Math.abs(seconds) <= MAX_UNIX_SECONDS) {
      return seconds;
    }
  }
  const rfc3339 = parseRfc3339(text);
  if (rfc3339) {
    return Math.floor(rfc3339.getTime() / 1000);
  }
  const old = /^(\d{4})-(\d{2})-(\d{2})[ +](\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (old) {
    const [, year, month, day, hour, minute, second] = old;
    const date = parseRfc3339(`${year}-${pad(month)}-${pad(day)}T${hour}:${minute}:${second}Z`);
    if (date) {
      return Math.floor(date.getTime() / 1000);
    }
  }
  throw new GoDecodeError('invalid date');
}

function rangeCheck(name: string, value: number | undefined, max: number): string | undefined {
  if (value === undefined) {
    return `'${name}' is required`;
  }
  if (value < 0) {
    return `'${name}' must be no less than 0`;
  }
  return value > max ? `'${name}' must be no greater than ${max}` : undefined;
}

/** POST cdns/dnsseckeys/generate (lib/go-tc CDNDNSSECGenerateReq). */
@GoStruct<CdnDnssecGenerateDto>('CDNDNSSECGenerateReq', {
  failure: DECODING,
  withCause: true,
  order: 'document',
  nullBody: 'null',
  check: (body) => {
    const errors = [
      body.key === undefined ? "'key (CDN name)' is required" : undefined,
      rangeCheck('ttl', body.ttl, MAX_TTL),
      rangeCheck('kskExpirationDays', body.kskExpirationDays, MAX_EXPIRATION_DAYS),
      rangeCheck('zskExpirationDays', body.zskExpirationDays, MAX_EXPIRATION_DAYS),
    ].filter((e): e is string => e !== undefined);
    return errors.length > 0 ? VALIDATING + errors.join(', ') : undefined;
  },
})
export class CdnDnssecGenerateDto {
  @GoField.string({ required: true, schema: { description: 'the CDN name' } })
  key!: string;

  @GoField.intStr(
    {},
    {
      required: true,
      schema: { minimum: 0, maximum: MAX_TTL, description: 'seconds; a number or a string' },
    },
  )
  ttl!: number;

  @GoField.intStr({}, { required: true, schema: { minimum: 0, maximum: MAX_EXPIRATION_DAYS } })
  kskExpirationDays!: number;

  @GoField.intStr({}, { required: true, schema: { minimum: 0, maximum: MAX_EXPIRATION_DAYS } })
  zskExpirationDays!: number;

  /** Unix seconds; now when the body has none. */
  @GoField.decoded(generateReqDate, {
    type: 'string',
    description: 'Unix seconds (number or string), RFC 3339, or `YYYY-MM-DD hh:mm:ss`',
  })
  effectiveDate?: number;
}

/** POST cdns/{name}/dnsseckeys/ksk/generate (lib/go-tc CDNGenerateKSKReq). */
@GoStruct<CdnGenerateKskDto>('CDNGenerateKSKReq', {
  failure: DECODING,
  withCause: true,
  order: 'document',
  nullBody: 'null',
  check: (body) =>
    body.expirationDays === 0 ? `${VALIDATING}missing fields: expiration missing` : undefined,
})
export class CdnGenerateKskDto {
  /** Required and checked, but the new key's lifetime is the old key's (as the original). */
  @GoField.uint('uint64', undefined, { required: true, schema: { minimum: 1 } })
  expirationDays = 0;

  /** Now when the body has none. */
  @GoField.rfc3339('rfc3339')
  effectiveDate?: Date;
}
