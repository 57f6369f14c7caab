import { BadRequestException } from '@nestjs/common';
import { isEmail } from 'class-validator';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { intProblem } from 'src/common/validation/integers';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';
import type { BodyContext } from 'src/common/validation/valid-body';

/** Every problem of a 3.x body starts so, as the original's decoding errors do. */
export const COULD_NOT_PARSE = "couldn't parse request: ";
export const MISSING_USER_OBJECT = "missing required 'user' object";
export const CANNOT_CHANGE_ID = 'id: cannot change user id';

/**
 * The fields a 3.x `PUT user/current` body gives, each only when present in it (the rest keep their
 * stored values); `null` clears an optional field.
 */
export interface CurrentUserV3Changes {
  addressLine1?: string | null;
  addressLine2?: string | null;
  city?: string | null;
  company?: string | null;
  country?: string | null;
  email?: string;
  fullName?: string;
  gid?: number | null;
  /** Only the user's own id may be given (`id: cannot change user id`, checked by the service). */
  id?: number;
  phoneNumber?: string | null;
  postalCode?: string | null;
  publicSshKey?: string | null;
  /** The role by id. */
  role?: number;
  stateOrProvince?: string | null;
  tenantId?: number;
  uid?: number | null;
  username?: string;
}

type Kind = 'string' | 'int';

/** The JSON kind of a value as Go's decoder names it in `cannot unmarshal <kind> into …`. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) {
    return 'array';
  }
  if (typeof value === 'boolean') {
    return 'bool';
  }
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Go's text for a value that does not decode into `goType` (a number into an int shows itself). */
function unmarshalText(value: unknown, goType: 'string' | 'int'): string {
  const kind = jsonKind(value);
  const shown = kind === 'number' && goType === 'int' ? `number ${String(value)}` : kind;
  return `json: cannot unmarshal ${shown} into Go value of type ${goType}`;
}

/**
 * One field decoded as the original decodes it into the stored user: a string or an int (32-bit, the
 * column's range, docs/decisions.md#d46), or null. Returns the value or the problem's text.
 */
function decode(value: unknown, kind: Kind, maxLength: number): { value: string | number | null } | string {
  if (value === null) {
    return { value: null };
  }
  if (kind === 'string') {
    if (typeof value !== 'string') {
      return unmarshalText(value, 'string');
    }
    return value.length > maxLength ? `the length must be no more than ${maxLength}` : { value };
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return unmarshalText(value, 'int');
  }
  const problem = intProblem(value);
  return problem ?? { value };
}

/** The optional fields: name, kind, the column's length. */
const OPTIONAL_FIELDS: [keyof CurrentUserV3Changes, Kind, number][] = [
  ['addressLine1', 'string', 255],
  ['addressLine2', 'string', 255],
  ['city', 'string', 128],
  ['company', 'string', 255],
  ['country', 'string', 128],
];

const OPTIONAL_FIELDS_AFTER_ID: [keyof CurrentUserV3Changes, Kind, number][] = [
  ['phoneNumber', 'string', 64],
  ['postalCode', 'string', 32],
  ['publicSshKey', 'string', 65535],
];

/**
 * The 3.x body, `{"user": {...}}`, read as the original reads it (docs/original-behaviour.md#user-current):
 * a field that is absent keeps its stored value; each field's problem is named after it and all are
 * joined (`couldn't parse request: email: cannot be null or an empty string, role: cannot be null`).
 * `localPasswd` is the new password (empty or null: no change); `confirmLocalPasswd` is read but has no
 * effect, as in the original. Unknown fields are ignored.
 */
export class CurrentUserV3Body {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      user: {
        type: 'object',
        description: 'the fields to change; those absent keep their values',
        properties: {
          addressLine1: { type: 'string', nullable: true },
          addressLine2: { type: 'string', nullable: true },
          city: { type: 'string', nullable: true },
          company: { type: 'string', nullable: true },
          confirmLocalPasswd: { type: 'string', nullable: true, description: 'read, without effect' },
          country: { type: 'string', nullable: true },
          email: { type: 'string' },
          fullName: { type: 'string' },
          gid: { type: 'integer', nullable: true },
          id: { type: 'integer', description: "the user's own id; it cannot change" },
          localPasswd: {
            type: 'string',
            nullable: true,
            description: 'a new password; empty or null: no change',
          },
          phoneNumber: { type: 'string', nullable: true },
          postalCode: { type: 'string', nullable: true },
          publicSshKey: { type: 'string', nullable: true },
          role: { type: 'integer', description: 'the role by id' },
          stateOrProvince: { type: 'string', nullable: true },
          tenantId: { type: 'integer' },
          uid: { type: 'integer', nullable: true },
          username: { type: 'string' },
        },
      },
    },
    required: ['user'],
  };

  constructor(
    readonly changes: CurrentUserV3Changes,
    /** The new password, when one is given (not empty). */
    readonly localPasswd: string | undefined,
  ) {}

  // Hand parser: 3.x decodes into the stored user with Go's texts (couldn't parse request: json: …) and presence per field; class-validator cannot say them.
  static parse(raw: unknown, context?: BodyContext): CurrentUserV3Body {
    if (context && !context.present) {
      throw new BadRequestException(`${COULD_NOT_PARSE}EOF`);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new BadRequestException(BODY_NOT_AN_OBJECT);
    }
    const wrapped = (raw as Record<string, unknown>).user;
    if (wrapped === undefined || wrapped === null) {
      throw new BadRequestException(MISSING_USER_OBJECT);
    }
    if (typeof wrapped !== 'object' || Array.isArray(wrapped)) {
      throw new BadRequestException(
        `${COULD_NOT_PARSE}json: cannot unmarshal ${jsonKind(wrapped)} into Go struct field ` +
          'CurrentUserUpdateRequest.user of type tc.CurrentUserUpdateRequestUser',
      );
    }
    const body = wrapped as Record<string, unknown>;
    // The passwords are plain strings in the original's request type: a wrong type fails the whole decoding.
    for (const field of ['confirmLocalPasswd', 'localPasswd']) {
      const value = body[field];
      if (value !== undefined && value !== null && typeof value !== 'string') {
        throw new BadRequestException(
          `${COULD_NOT_PARSE}json: cannot unmarshal ${jsonKind(value)} into Go struct field ` +
            `CurrentUserUpdateRequestUser.user.${field} of type string`,
        );
      }
    }
    const changes: CurrentUserV3Changes = {};
    const problems: string[] = [];
    const set = (field: keyof CurrentUserV3Changes, kind: Kind, maxLength = 0): boolean => {
      if (body[field] === undefined) {
        return false;
      }
      const decoded = decode(body[field], kind, maxLength);
      if (typeof decoded === 'string') {
        problems.push(`${field}: ${decoded}`);
        return false;
      }
      (changes as Record<string, unknown>)[field] = decoded.value;
      return true;
    };

    for (const [field, kind, length] of OPTIONAL_FIELDS) {
      set(field, kind, length);
    }
    if (set('email', 'string', 255)) {
      if (changes.email === null || changes.email === '') {
        problems.push('email: cannot be null or an empty string');
      } else if (!isEmail(changes.email)) {
        // The original's text for this one names no field.
        problems.push('must be a valid email address');
      }
    }
    if (set('fullName', 'string', 255) && (changes.fullName === null || changes.fullName === '')) {
      problems.push("fullName: cannot be set to 'null' or empty string");
    }
    set('gid', 'int');
    if (body.id === null) {
      // null decodes into the original's int as 0: never the user's id.
      changes.id = 0;
    } else {
      set('id', 'int');
    }
    for (const [field, kind, length] of OPTIONAL_FIELDS_AFTER_ID) {
      set(field, kind, length);
    }
    if (set('role', 'int') && changes.role === null) {
      problems.push('role: cannot be null');
    }
    set('stateOrProvince', 'string', 128);
    if (body.tenantId !== undefined) {
      const decoded = decode(body.tenantId, 'int', 0);
      if (typeof decoded === 'string') {
        problems.push(`tenantID: ${decoded}`);
      } else if (decoded.value === null) {
        problems.push('tenantID: cannot be null');
      } else {
        changes.tenantId = decoded.value as number;
      }
    }
    set('uid', 'int');
    if (set('username', 'string', 128) && (changes.username === null || changes.username === '')) {
      problems.push('username: cannot be null or empty string');
    }
    if (problems.length > 0) {
      throw new BadRequestException(COULD_NOT_PARSE + problems.join(', '));
    }
    const password = body.localPasswd as string | null | undefined;
    return new CurrentUserV3Body(changes, password === null || password === '' ? undefined : password);
  }
}
