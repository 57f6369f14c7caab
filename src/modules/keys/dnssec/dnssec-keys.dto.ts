import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { parseRfc3339 } from 'src/modules/jobs/go-formats';

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

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) {
    return 'array';
  }
  if (value === null) {
    return 'null';
  }
  return typeof value === 'object' ? 'object' : typeof value === 'boolean' ? 'bool' : typeof value;
}

/** The object's fields by the struct's field names (the last one of a name wins, as in Go). */
function structFields(raw: unknown, goType: string, names: string[]): Map<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new BadRequestException(
      `${DECODING}json: cannot unmarshal ${jsonKind(raw)} into Go value of type ${goType}`,
    );
  }
  const fields = new Map<string, unknown>();
  for (const [key, value] of Object.entries(raw)) {
    const name = names.find((n) => n === key) ?? names.find((n) => n.toLowerCase() === key.toLowerCase());
    if (name !== undefined) {
      fields.delete(name);
      fields.set(name, value);
    }
  }
  return fields;
}

/** util.JSONIntStr: a number or a string holding a base-10 integer. */
function intOrString(value: unknown): number {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  if (!/^[+-]?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new BadRequestException(`${DECODING}not an integer`);
  }
  return Number(text);
}

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
  throw new BadRequestException(`${DECODING}invalid date`);
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
export class CdnDnssecGenerateDto {
  key = '';
  ttl = 0;
  kskExpirationDays = 0;
  zskExpirationDays = 0;
  /** Unix seconds; now when the body has none. */
  effectiveDate?: number;

  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      key: { type: 'string', description: 'the CDN name' },
      ttl: { type: 'integer', minimum: 0, maximum: MAX_TTL, description: 'seconds; a number or a string' },
      kskExpirationDays: { type: 'integer', minimum: 0, maximum: MAX_EXPIRATION_DAYS },
      zskExpirationDays: { type: 'integer', minimum: 0, maximum: MAX_EXPIRATION_DAYS },
      effectiveDate: {
        type: 'string',
        description: 'Unix seconds (number or string), RFC 3339, or `YYYY-MM-DD hh:mm:ss`',
      },
    },
    required: ['key', 'ttl', 'kskExpirationDays', 'zskExpirationDays'],
  };

  // Hand parser: Go's decoder texts (json: cannot unmarshal … into Go struct field …) stop at the first bad field; class-validator cannot say them.
  static parse(raw: unknown): CdnDnssecGenerateDto {
    const names = ['key', 'ttl', 'kskExpirationDays', 'zskExpirationDays', 'effectiveDate'];
    const fields = structFields(raw, 'tc.CDNDNSSECGenerateReq', names);
    const values: Record<string, string | number | undefined> = {};
    for (const [name, value] of fields) {
      if (value === null) {
        values[name] = undefined;
      } else if (name === 'key') {
        if (typeof value !== 'string') {
          throw new BadRequestException(
            `${DECODING}json: cannot unmarshal ${jsonKind(value)} into Go struct field CDNDNSSECGenerateReq.key of type string`,
          );
        }
        values.key = value;
      } else if (name === 'effectiveDate') {
        values.effectiveDate = generateReqDate(value);
      } else {
        values[name] = intOrString(value);
      }
    }
    const errors = [
      values.key === undefined ? "'key (CDN name)' is required" : undefined,
      rangeCheck('ttl', values.ttl as number | undefined, MAX_TTL),
      rangeCheck('kskExpirationDays', values.kskExpirationDays as number | undefined, MAX_EXPIRATION_DAYS),
      rangeCheck('zskExpirationDays', values.zskExpirationDays as number | undefined, MAX_EXPIRATION_DAYS),
    ].filter((e): e is string => e !== undefined);
    if (errors.length > 0) {
      throw new BadRequestException(VALIDATING + errors.join(', '));
    }
    const dto = new CdnDnssecGenerateDto();
    dto.key = values.key as string;
    dto.ttl = values.ttl as number;
    dto.kskExpirationDays = values.kskExpirationDays as number;
    dto.zskExpirationDays = values.zskExpirationDays as number;
    dto.effectiveDate = values.effectiveDate as number | undefined;
    return dto;
  }
}

/** POST cdns/{name}/dnsseckeys/ksk/generate (lib/go-tc CDNGenerateKSKReq). */
export class CdnGenerateKskDto {
  /** Required and checked, but the new key's lifetime is the old key's (as the original). */
  expirationDays = 0;
  /** Now when the body has none. */
  effectiveDate?: Date;

  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      expirationDays: { type: 'integer', minimum: 1 },
      effectiveDate: { type: 'string', description: 'RFC 3339' },
    },
    required: ['expirationDays'],
  };

  // Hand parser: Go's decoder texts (json: cannot unmarshal … into Go struct field …) stop at the first bad field; class-validator cannot say them.
  static parse(raw: unknown): CdnGenerateKskDto {
    const fields = structFields(raw, 'tc.CDNGenerateKSKReq', ['expirationDays', 'effectiveDate']);
    const dto = new CdnGenerateKskDto();
    for (const [name, value] of fields) {
      if (value === null) {
        continue;
      }
      if (name === 'expirationDays') {
        if (typeof value !== 'number') {
          throw new BadRequestException(
            `${DECODING}json: cannot unmarshal ${jsonKind(value)} into Go struct field CDNGenerateKSKReq.expirationDays of type uint64`,
          );
        }
        if (!Number.isInteger(value) || value < 0 || value > Number.MAX_SAFE_INTEGER) {
          throw new BadRequestException(
            `${DECODING}json: cannot unmarshal number ${value} into Go struct field CDNGenerateKSKReq.expirationDays of type uint64`,
          );
        }
        dto.expirationDays = value;
      } else {
        if (typeof value !== 'string') {
          throw new BadRequestException(`${DECODING}Time.UnmarshalJSON: input is not a JSON string`);
        }
        const date = parseRfc3339(value);
        if (!date) {
          throw new BadRequestException(
            `${DECODING}parsing time ${JSON.stringify(value)} as RFC 3339: invalid time`,
          );
        }
        dto.effectiveDate = date;
      }
    }
    if (dto.expirationDays === 0) {
      throw new BadRequestException(`${VALIDATING}missing fields: expiration missing`);
    }
    return dto;
  }
}
