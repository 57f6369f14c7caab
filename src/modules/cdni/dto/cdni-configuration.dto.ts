import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';

/** The most JSON a queued request keeps (its `data` column is TEXT on MySQL). */
export const MAX_DATA_BYTES = 65535;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function refuseUnlessObject(raw: unknown): Record<string, unknown> {
  if (!isObject(raw)) {
    throw new BadRequestException('the request body must be a JSON object');
  }
  return raw;
}

/** The problem of the `metadata` JSON, if any: required (not null), and within MAX_DATA_BYTES. */
function metadataProblem(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) {
    return `'${name}' is required`;
  }
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > MAX_DATA_BYTES) {
    return `'${name}' the length must be no more than ${MAX_DATA_BYTES}`;
  }
  return undefined;
}

function refuse(problems: (string | undefined)[]): void {
  const found = problems.filter((p): p is string => p !== undefined);
  if (found.length > 0) {
    throw new BadRequestException(found.join(', '));
  }
}

const stringProblem = (name: string, value: unknown): string | undefined =>
  value === undefined || typeof value === 'string' ? undefined : `'${name}' must be a string`;

/**
 * Body of PUT OC/CI/configuration (the original's GenericRequestMetadata): the request's type, the
 * generic metadata (kept as sent, any JSON) and the host it concerns. The original fails with 500
 * on a body it cannot decode or without metadata; here those are 400s (docs/decisions.md#d8).
 */
export class CdniConfigurationDto {
  type!: string;
  metadata!: unknown;
  host!: string;

  static readonly schema: JsonSchema = {
    type: 'object',
    required: ['metadata'],
    properties: {
      type: { type: 'string' },
      metadata: { description: 'generic metadata objects (RFC 8006), kept as sent' },
      host: { type: 'string' },
    },
  };

  static parse(raw: unknown): CdniConfigurationDto {
    const body = refuseUnlessObject(raw);
    refuse([
      stringProblem('type', body.type),
      metadataProblem('metadata', body.metadata),
      stringProblem('host', body.host),
    ]);
    const dto = new CdniConfigurationDto();
    dto.type = (body.type as string | undefined) ?? '';
    dto.metadata = body.metadata;
    dto.host = (body.host as string | undefined) ?? '';
    return dto;
  }
}

/**
 * Body of PUT OC/CI/configuration/{host} (the original's GenericHostMetadata): `host-metadata`'s
 * `metadata` is what is queued; `host` in the body is read but the path's host is the one kept.
 */
export class CdniHostConfigurationDto {
  host!: string;
  metadata!: unknown;

  static readonly schema: JsonSchema = {
    type: 'object',
    required: ['host-metadata'],
    properties: {
      host: { type: 'string' },
      'host-metadata': {
        type: 'object',
        required: ['metadata'],
        properties: { metadata: { description: 'generic metadata objects (RFC 8006), kept as sent' } },
      },
    },
  };

  static parse(raw: unknown): CdniHostConfigurationDto {
    const body = refuseUnlessObject(raw);
    const hostMetadata = body['host-metadata'];
    refuse([
      stringProblem('host', body.host),
      hostMetadata === undefined || hostMetadata === null
        ? `'host-metadata' is required`
        : !isObject(hostMetadata)
          ? `'host-metadata' must be an object`
          : metadataProblem('host-metadata.metadata', hostMetadata.metadata),
    ]);
    const dto = new CdniHostConfigurationDto();
    dto.host = (body.host as string | undefined) ?? '';
    dto.metadata = (hostMetadata as Record<string, unknown>).metadata;
    return dto;
  }
}
