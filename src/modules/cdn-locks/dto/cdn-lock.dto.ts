import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/** POST /cdn_locks, as read (docs/original-behaviour.md#cdn-locks). */
export interface CdnLockRequest {
  cdn: string;
  message: string | null;
  soft: boolean;
  /** `undefined` when the body has none (the answer then says `null`, as the original's does). */
  sharedUserNames: string[] | undefined;
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) {
    return 'array';
  }
  return typeof value === 'boolean' ? 'bool' : typeof value === 'object' ? 'object' : typeof value;
}

/** The original decodes the body into its Go struct: a field of another JSON type is that decoder's error. */
function typeError(value: unknown, field: string, goType: string): BadRequestException {
  return new BadRequestException(
    `json: cannot unmarshal ${jsonType(value)} into Go struct field CDNLock.${field} of type ${goType}`,
  );
}

function optionalString(body: Record<string, unknown>, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) {
    return null;
  }
  if (typeof value !== 'string') {
    throw typeError(value, field, 'string');
  }
  return value;
}

/**
 * Reads the body in the original's order: the JSON types first (the decoder), then `soft` must be
 * present (`field 'soft' must be present`), then `cdn` must be a non-empty name (`field 'cdn' must
 * be present`).
 */
export function parseCdnLock(raw: unknown): CdnLockRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new BadRequestException(BODY_NOT_AN_OBJECT);
  }
  const body = raw as Record<string, unknown>;
  optionalString(body, 'userName');
  const cdn = optionalString(body, 'cdn') ?? '';
  const message = optionalString(body, 'message');
  const soft = body.soft;
  if (soft !== undefined && soft !== null && typeof soft !== 'boolean') {
    throw typeError(soft, 'soft', 'bool');
  }
  let shared: string[] | undefined;
  const names = body.sharedUserNames;
  if (names !== undefined && names !== null) {
    if (!Array.isArray(names)) {
      throw typeError(names, 'sharedUserNames', '[]string');
    }
    shared = (names as unknown[]).map((name) => {
      if (name !== null && typeof name !== 'string') {
        throw typeError(name, 'sharedUserNames', 'string');
      }
      return name ?? '';
    });
  }
  if (soft === undefined || soft === null) {
    throw new BadRequestException("field 'soft' must be present");
  }
  if (cdn === '') {
    throw new BadRequestException("field 'cdn' must be present");
  }
  return { cdn, message, soft, sharedUserNames: shared };
}

/** The body class of POST /cdn_locks (`@ValidBody(CdnLockBody)`), read by parseCdnLock. */
export class CdnLockBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      cdn: { type: 'string', description: 'the name of the CDN to lock' },
      message: { type: 'string', description: 'why the lock is taken (optional)' },
      soft: { type: 'boolean', description: 'a soft lock (true) or a hard one (false)' },
      sharedUserNames: {
        type: 'array',
        items: { type: 'string' },
        description: 'users the lock is shared with (optional)',
      },
    },
    required: ['cdn', 'soft'],
  };
  static readonly parse = (raw: unknown): CdnLockRequest => parseCdnLock(raw);
}
