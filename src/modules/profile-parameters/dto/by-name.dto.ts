import type { JsonSchema } from 'src/common/validation/json-schema';
import type { BodyContext } from 'src/common/validation/valid-body';
import { BadRequestException } from '@nestjs/common';

/** One parameter of POST profiles/name/{name}/parameters; `secure` is an integer there (0 or 1). */
export interface ByNameParameter {
  configFile: string;
  name: string;
  secure: 0 | 1;
  value: string;
}

const FIELDS = ['configFile', 'name', 'secure', 'value'] as const;
const MAX_LENGTH: Record<string, number> = { configFile: 1024, name: 1024, value: 65535 };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function typeProblem(field: (typeof FIELDS)[number], value: unknown): string | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (field === 'secure') {
    if (typeof value === 'boolean') {
      return "'secure' must be an integer 0 or 1, not a boolean";
    }
    return value === 0 || value === 1 ? undefined : "'secure' must be an integer 0 or 1";
  }
  if (typeof value !== 'string') {
    return `'${field}' must be a string`;
  }
  return value.length > MAX_LENGTH[field]
    ? `'${field}' the length must be no more than ${MAX_LENGTH[field]}`
    : undefined;
}

function isMissing(field: (typeof FIELDS)[number], value: unknown): boolean {
  if (value === undefined || value === null) {
    return true;
  }
  // configFile and name must not be empty; value may be "".
  return (field === 'configFile' || field === 'name') && value === '';
}

/**
 * Reads the body the way the original does (docs/original-behaviour.md#profile-parameters-by-name): one
 * object or an array; decoding problems (wrong JSON types, a boolean `secure`) first, as
 * `parse error: decoding: …`; then the missing fields of each object,
 * `parse error: validating: object <i>: required fields missing: …` in the order configFile, name,
 * secure, value, the objects joined with `, `.
 */
export function parseByNameBody(body: unknown): ByNameParameter[] {
  const objects: unknown[] = Array.isArray(body) ? body : [body];
  if (!Array.isArray(body) && !isPlainObject(body)) {
    throw new BadRequestException(
      'parse error: decoding: the request body must be a JSON object or an array of objects',
    );
  }
  const decoding: string[] = [];
  objects.forEach((object, i) => {
    if (!isPlainObject(object)) {
      decoding.push(`object ${i}: must be a JSON object`);
      return;
    }
    for (const field of FIELDS) {
      const problem = typeProblem(field, object[field]);
      if (problem) {
        decoding.push(`object ${i}: ${problem}`);
      }
    }
  });
  if (decoding.length > 0) {
    throw new BadRequestException(`parse error: decoding: ${decoding.join(', ')}`);
  }
  const records = objects as Record<string, unknown>[];
  const validating: string[] = [];
  records.forEach((object, i) => {
    const missing = FIELDS.filter((field) => isMissing(field, object[field]));
    if (missing.length > 0) {
      validating.push(`object ${i}: required fields missing: ${missing.join(', ')}`);
    }
  });
  if (validating.length > 0) {
    throw new BadRequestException(`parse error: validating: ${validating.join(', ')}`);
  }
  return records.map((object) => ({
    configFile: object.configFile as string,
    name: object.name as string,
    secure: object.secure as 0 | 1,
    value: object.value as string,
  }));
}

/**
 * The body class of POST profiles/name/{name}/parameters, read by parseByNameBody.
 * Hand parser (docs/decisions.md#d226): an array whose objects' decoding problems all come before any object's missing fields.
 */
export class ByNameParametersBody {
  static readonly schema: JsonSchema = {
    type: 'array',
    description: 'or one such object alone',
    items: {
      type: 'object',
      properties: {
        configFile: { type: 'string' },
        name: { type: 'string' },
        secure: { type: 'integer', enum: [0, 1] },
        value: { type: 'string' },
      },
      required: ['configFile', 'name', 'secure', 'value'],
    },
  };
  static readonly parse = (raw: unknown, { present }: BodyContext): ByNameParameter[] => {
    if (!present) {
      throw new BadRequestException('parse error: decoding: EOF');
    }
    return parseByNameBody(raw);
  };
}
