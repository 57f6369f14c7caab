import type { JsonSchema } from 'src/common/validation/json-schema';
import type { BodyContext } from 'src/common/validation/valid-body';
import { BadRequestException } from '@nestjs/common';
import type { ApiVersion } from 'src/common/versioning/api-version';

/** Body of PUT /deliveryservices/{id}/safe (lib/go-tc DeliveryServiceSafeUpdateRequest). */
export interface SafeUpdate {
  displayName: string;
  infoUrl: string | null;
  longDesc: string | null;
  /** Only API 3.x; undefined when absent. */
  longDesc1?: string | null;
}

const FIELDS = ['displayName', 'infoUrl', 'longDesc', 'longDesc1'] as const;

/**
 * Reads the body as the original does (`decoding: validating: …`,
 * docs/original-behaviour.md#deliveryservices-safe); `longDesc1` on 4.0+ is refused with the original's
 * own text. Throws the 400 of the first problem.
 */
export function parseSafeUpdate(body: unknown, version: ApiVersion): SafeUpdate {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException('decoding: the request body must be a JSON object');
  }
  const record = body as Record<string, unknown>;
  for (const field of FIELDS) {
    const value = record[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      throw new BadRequestException(`decoding: validating: ${field}: must be a string`);
    }
  }
  const displayName = record.displayName as string | null | undefined;
  if (displayName === undefined || displayName === null) {
    throw new BadRequestException('decoding: validating: displayName: cannot be null/missing');
  }
  if (displayName.length > 48) {
    throw new BadRequestException('decoding: validating: displayName: the length must be between 1 and 48');
  }
  const longDesc1 = record.longDesc1 as string | null | undefined;
  if (version.atLeast('4.0') && longDesc1 !== undefined && longDesc1 !== null) {
    throw new BadRequestException('the longDesc1 field is no longer supported in API 4.0 onwards');
  }
  return {
    displayName,
    infoUrl: (record.infoUrl as string | null | undefined) ?? null,
    longDesc: (record.longDesc as string | null | undefined) ?? null,
    ...(version.atLeast('4.0') ? {} : { longDesc1: longDesc1 ?? null }),
  };
}

/** The body class of PUT deliveryservices/{id}/safe, read by parseSafeUpdate after the lookups. */
export class SafeUpdateBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      displayName: { type: 'string', minLength: 1 },
      infoUrl: { type: 'string', nullable: true },
      longDesc: { type: 'string', nullable: true },
      longDesc1: { type: 'string', nullable: true, description: 'API 3.x only' },
    },
    required: ['displayName'],
  };
  static readonly parse = (raw: unknown, { version }: BodyContext): SafeUpdate =>
    parseSafeUpdate(raw, version);
}
