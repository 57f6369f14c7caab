import { BadRequestException } from '@nestjs/common';
import { BIGINT, fitsColumn } from 'src/common/validation/integers';

/*
 * What the CDNi tables and a queued request hold, read as the original's Go decodes it: JSON text
 * columns, and the generic metadata of a configuration request (docs/original-behaviour.md#cdni).
 */

/** The one generic metadata type an approval can apply. */
const REQUESTED_CAPACITY_LIMITS = 'MI.RequestedCapacityLimits';

/** A requested limit as the original reads it from a queued request (`CapacityLimit`). */
export interface RequestedLimit {
  limitType: string;
  limitValue: number;
  footprints: { type: string; value: string[] }[];
}

/** A JSON array of strings kept in a text column (the original's `text[]`). */
export function stringArray(text: string | null): string[] | null {
  if (text === null) {
    return null;
  }
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
    throw new Error(`not a JSON array of strings: ${text}`);
  }
  return value;
}

/** Go's `%v` of a footprint (`{ipv4cidr [a b] 0}`: the capability id is never read from JSON). */
const goFootprint = (f: { type: string; value: string[] }): string => `{${f.type} [${f.value.join(' ')}] 0}`;
export const goFootprints = (fs: { type: string; value: string[] }[]): string =>
  `[${fs.map(goFootprint).join(' ')}]`;
export const goLimit = (l: RequestedLimit): string =>
  `{${l.limitType} ${l.limitValue} ${goFootprints(l.footprints)}}`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A refusal to apply a queued request whose data cannot be read (the original fails with 500). */
function unreadable(problem: string): BadRequestException {
  return new BadRequestException(`unmarshalling data for configuration update: ${problem}`);
}

/** A JSON string field as Go decodes it into a string: absent or null is ''. */
function goString(value: unknown, name: string): string {
  if (value === undefined || value === null) {
    return '';
  }
  if (typeof value !== 'string') {
    throw unreadable(`${name} must be a string`);
  }
  return value;
}

/** A JSON array field as Go decodes it into a slice: absent or null is empty. */
function goArray(value: unknown, name: string): unknown[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw unreadable(`${name} must be an array`);
  }
  return value;
}

/** The requested limits of an `MI.RequestedCapacityLimits` value (`CapacityRequestedLimits`). */
export function requestedLimits(value: unknown): RequestedLimit[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!isObject(value)) {
    throw unreadable('generic-metadata-value must be an object');
  }
  return goArray(value['requested-limits'], 'requested-limits').map((raw) => {
    if (raw !== null && !isObject(raw)) {
      throw unreadable('a requested limit must be an object');
    }
    const limit = raw ?? {};
    const limitValue = limit['limit-value'] ?? 0;
    if (!fitsColumn(limitValue, BIGINT)) {
      throw unreadable(`limit-value must be an integer between ${BIGINT.min} and ${BIGINT.max}`);
    }
    return {
      limitType: goString(limit['limit-type'], 'limit-type'),
      limitValue,
      footprints: goArray(limit.footprints, 'footprints').map((rawFootprint) => {
        if (rawFootprint !== null && !isObject(rawFootprint)) {
          throw unreadable('a footprint must be an object');
        }
        const footprint = rawFootprint ?? {};
        return {
          type: goString(footprint['footprint-type'], 'footprint-type'),
          value: goArray(footprint['footprint-value'], 'footprint-value').map((entry) =>
            goString(entry, 'footprint-value'),
          ),
        };
      }),
    };
  });
}

/** The request's data as a list of generic metadata, every type one an approval can apply. */
export function genericMetadata(data: string): { type: string; value: unknown }[] {
  const list = goArray(JSON.parse(data), 'data').map((entry) => {
    if (entry !== null && !isObject(entry)) {
      throw unreadable('data must be a list of generic metadata objects');
    }
    const item = entry ?? {};
    return {
      type: goString(item['generic-metadata-type'], 'generic-metadata-type'),
      value: item['generic-metadata-value'],
    };
  });
  const unsupported = list.map((item) => item.type).filter((type) => type !== REQUESTED_CAPACITY_LIMITS);
  if (unsupported.length > 0) {
    throw new BadRequestException(`unsupported generic metadata types found: ${unsupported.join(', ')}`);
  }
  return list;
}
