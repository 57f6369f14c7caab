import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { parseLegacyTime, parseRfc3339 } from 'src/modules/jobs/go-formats';

/**
 * The bodies of the jobs routes, decoded as the original's Go structs decode them
 * (docs/original-behaviour.md#jobs): a missing or null field is its zero value (validated later by
 * the service, in the original's words); a value of the wrong JSON type fails the whole decoding.
 */

const UINT32_MAX = 4294967295;

/** The JSON kind of a value as Go's decoder names it. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) {
    return 'array';
  }
  if (value === null) {
    return 'null';
  }
  return typeof value === 'object' ? 'object' : typeof value === 'boolean' ? 'bool' : typeof value;
}

class DecodeError extends Error {}

/** Reads the fields of one Go struct from a JSON object, with the decoder's error texts. */
class StructReader {
  private readonly record: Record<string, unknown>;

  constructor(
    raw: unknown,
    private readonly struct: string,
  ) {
    if (raw === null) {
      this.record = {};
    } else if (typeof raw !== 'object' || Array.isArray(raw)) {
      throw new DecodeError(`json: cannot unmarshal ${jsonKind(raw)} into Go value of type tc.${struct}`);
    } else {
      this.record = raw as Record<string, unknown>;
    }
  }

  has(field: string): boolean {
    return this.record[field] !== undefined && this.record[field] !== null;
  }

  raw(field: string): unknown {
    return this.record[field] ?? undefined;
  }

  string(field: string): string | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) {
      return undefined;
    }
    if (typeof value !== 'string') {
      throw this.mismatch(field, value, 'string');
    }
    return value;
  }

  /** An unsigned integer of Go type `goType`, at most `max` (and never beyond JSON's exact integers). */
  uint(field: string, goType: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) {
      return undefined;
    }
    if (typeof value !== 'number') {
      throw this.mismatch(field, value, goType);
    }
    if (!Number.isInteger(value) || value < 0 || value > Math.min(max, Number.MAX_SAFE_INTEGER)) {
      throw new DecodeError(
        `json: cannot unmarshal number ${value} into Go struct field ${this.struct}.${field} of type ${goType}`,
      );
    }
    return value;
  }

  /** A Go `time.Time`: a JSON string in RFC 3339. */
  rfc3339(field: string): Date | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) {
      return undefined;
    }
    if (typeof value !== 'string') {
      throw new DecodeError('Time.UnmarshalJSON: input is not a JSON string');
    }
    const date = parseRfc3339(value);
    if (!date) {
      throw new DecodeError(
        `parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse`,
      );
    }
    return date;
  }

  /** A lib/go-tc `Time` (3.x): see parseLegacyTime. */
  legacyTime(field: string): Date | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) {
      return undefined;
    }
    const date = parseLegacyTime(value);
    if (!date) {
      throw new DecodeError(`parsing time ${JSON.stringify(JSON.stringify(value))}: not a valid time`);
    }
    return date;
  }

  private mismatch(field: string, value: unknown, goType: string): DecodeError {
    return new DecodeError(
      `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${this.struct}.${field} of type ${goType}`,
    );
  }
}

function decode<T>(prefix: string, work: () => T, withCause: boolean): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof DecodeError) {
      throw new BadRequestException(withCause ? `${prefix}${error.message}` : prefix);
    }
    throw error;
  }
}

const CREATE_FAILED = 'Unable to parse Invalidation Job';
const UPDATE_FAILED = 'Unable to parse input: ';

/** POST jobs on 4.0+ (lib/go-tc InvalidationJobCreateV4). */
export class JobCreateV4Body {
  deliveryService = '';
  regex = '';
  /** Undefined: absent (Go's zero time). */
  startTime?: Date;
  ttlHours = 0;
  invalidationType = '';

  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      deliveryService: { type: 'string', description: 'xmlId' },
      regex: { type: 'string' },
      startTime: { type: 'string', description: 'RFC 3339' },
      ttlHours: { type: 'integer', minimum: 1 },
      invalidationType: { type: 'string', enum: ['REFRESH', 'REFETCH'] },
    },
    required: ['deliveryService', 'regex', 'startTime', 'ttlHours', 'invalidationType'],
  };

  // Hand parser: Go's decoder stops at the first field of a wrong JSON type, in its words (json: cannot unmarshal …); class-validator reports every field.
  static parse(raw: unknown): JobCreateV4Body {
    return decode(
      CREATE_FAILED,
      () => {
        const reader = new StructReader(raw, 'InvalidationJobCreateV4');
        const body = new JobCreateV4Body();
        body.deliveryService = reader.string('deliveryService') ?? '';
        body.regex = reader.string('regex') ?? '';
        body.startTime = reader.rfc3339('startTime');
        body.ttlHours = reader.uint('ttlHours', 'uint32', UINT32_MAX) ?? 0;
        body.invalidationType = reader.string('invalidationType') ?? '';
        return body;
      },
      false,
    );
  }
}

/** PUT jobs?id= on 4.0+ (lib/go-tc InvalidationJobV4): the whole job. */
export class JobV4Body {
  id = 0;
  assetUrl = '';
  createdBy = '';
  deliveryService = '';
  ttlHours = 0;
  invalidationType = '';
  startTime?: Date;

  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      assetUrl: { type: 'string' },
      createdBy: { type: 'string' },
      deliveryService: { type: 'string' },
      ttlHours: { type: 'integer', minimum: 1 },
      invalidationType: { type: 'string', enum: ['REFRESH', 'REFETCH'] },
      startTime: { type: 'string', description: 'RFC 3339' },
    },
    required: ['id', 'assetUrl', 'createdBy', 'deliveryService', 'ttlHours', 'invalidationType', 'startTime'],
  };

  // Hand parser: Go's decoder stops at the first field of a wrong JSON type, in its words (json: cannot unmarshal …); class-validator reports every field.
  static parse(raw: unknown): JobV4Body {
    return decode(
      UPDATE_FAILED,
      () => {
        const reader = new StructReader(raw, 'InvalidationJobV4');
        const body = new JobV4Body();
        body.id = reader.uint('id', 'uint64') ?? 0;
        body.assetUrl = reader.string('assetUrl') ?? '';
        body.createdBy = reader.string('createdBy') ?? '';
        body.deliveryService = reader.string('deliveryService') ?? '';
        body.ttlHours = reader.uint('ttlHours', 'uint') ?? 0;
        body.invalidationType = reader.string('invalidationType') ?? '';
        body.startTime = reader.rfc3339('startTime');
        return body;
      },
      true,
    );
  }
}

/** POST jobs on 3.x (lib/go-tc InvalidationJobInput): `deliveryService` an id or an xmlId, `ttl` hours or a duration. */
export class JobCreateV3Body {
  deliveryService?: unknown;
  regex?: string;
  startTime?: Date;
  ttl?: unknown;

  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      deliveryService: { description: 'id (integer) or xmlId (string)' },
      regex: { type: 'string' },
      startTime: { description: 'RFC 3339, YYYY-MM-DD HH:MM:SS[-07] or milliseconds since the epoch' },
      ttl: { description: 'hours (number) or a duration such as "48h"' },
    },
    required: ['deliveryService', 'regex', 'startTime', 'ttl'],
  };

  // Hand parser: Go's decoder stops at the first field of a wrong JSON type, in its words (json: cannot unmarshal …); class-validator reports every field.
  static parse(raw: unknown): JobCreateV3Body {
    return decode(
      CREATE_FAILED,
      () => {
        const reader = new StructReader(raw, 'InvalidationJobInput');
        const body = new JobCreateV3Body();
        body.deliveryService = reader.raw('deliveryService');
        body.regex = reader.string('regex');
        body.startTime = reader.legacyTime('startTime');
        body.ttl = reader.raw('ttl');
        return body;
      },
      false,
    );
  }
}

/** PUT jobs?id= on 3.x (lib/go-tc InvalidationJob): the whole job, its TTL in `parameters` (`TTL:48h`). */
export class JobV3Body {
  assetUrl?: string;
  createdBy?: string;
  deliveryService?: string;
  id?: number;
  keyword?: string;
  parameters?: string;
  startTime?: Date;

  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      assetUrl: { type: 'string' },
      createdBy: { type: 'string' },
      deliveryService: { type: 'string' },
      id: { type: 'integer' },
      keyword: { type: 'string' },
      parameters: { type: 'string', description: 'TTL:<hours>h' },
      startTime: { type: 'string' },
    },
    required: ['assetUrl', 'createdBy', 'deliveryService', 'id', 'keyword', 'parameters', 'startTime'],
  };

  // Hand parser: Go's decoder stops at the first field of a wrong JSON type, in its words (json: cannot unmarshal …); class-validator reports every field.
  static parse(raw: unknown): JobV3Body {
    return decode(
      UPDATE_FAILED,
      () => {
        const reader = new StructReader(raw, 'InvalidationJob');
        const body = new JobV3Body();
        body.assetUrl = reader.string('assetUrl');
        body.createdBy = reader.string('createdBy');
        body.deliveryService = reader.string('deliveryService');
        body.id = reader.uint('id', 'uint64');
        body.keyword = reader.string('keyword');
        body.parameters = reader.string('parameters');
        body.startTime = reader.legacyTime('startTime');
        return body;
      },
      true,
    );
  }
}
