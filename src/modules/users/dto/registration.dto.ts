import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/**
 * An e-mail address as the original's `rfc.EmailAddress` reads it from JSON: a string that parses
 * as an address (`Couldn't parse '<s>' as an email address: mail: …`); null or absent → ''.
 */
export function readEmail(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
  }
  if (typeof value !== 'string') {
    throw new BadRequestException(`JSON ${JSON.stringify(value)} not quoted: invalid syntax`);
  }
  const address = value.trim();
  let problem: string | undefined;
  if (address === '') {
    problem = 'no address';
  } else if (!address.includes('@')) {
    problem = "missing '@' or angle-addr";
  } else if (!/^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+$/.test(address)) {
    problem = 'invalid string';
  }
  if (problem) {
    throw new BadRequestException(`Couldn't parse '${value}' as an email address: mail: ${problem}`);
  }
  return address;
}

function goTypeError(value: unknown, struct: string, field: string, goType: string): BadRequestException {
  const json = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  return new BadRequestException(
    `json: cannot unmarshal ${json === 'object' ? 'object' : json} into Go struct field ${struct}.${field} of type ${goType}`,
  );
}

/** POST users/register, as read (docs/original-behaviour.md#user-registration). */
export interface RegistrationRequest {
  email: string;
  /** The role by name (4.0+) or by id (3.x). */
  role: string | number;
  tenantId: number;
}

const MAX_UINT = 4294967295;

function readUint(body: Record<string, unknown>, field: string, struct: string): number {
  const value = body[field];
  if (value === undefined || value === null) {
    return 0;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_UINT) {
    throw goTypeError(typeof value === 'number' ? 'number' : value, struct, field, 'uint');
  }
  return value;
}

/** The body of 4.0+: `{email, role (name), tenantId}`; the checks' texts joined as the original joins them. */
export function parseRegistrationV4(raw: unknown): RegistrationRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new BadRequestException(BODY_NOT_AN_OBJECT);
  }
  const body = raw as Record<string, unknown>;
  const email = readEmail(body.email);
  const role = body.role ?? '';
  if (typeof role !== 'string') {
    throw goTypeError(role, 'UserRegistrationRequestV4', 'role', 'string');
  }
  const tenantId = readUint(body, 'tenantId', 'UserRegistrationRequestV4');
  const problems: string[] = [];
  if (role === '') {
    problems.push('role: required and cannot be empty');
  }
  if (tenantId === 0) {
    problems.push('tenantId: required and cannot be zero');
  }
  if (email === '') {
    problems.push('email: required');
  }
  if (problems.length > 0) {
    throw new BadRequestException(problems.join(', '));
  }
  return { email, role, tenantId };
}

/** The body of 3.x: `{email, role (id), tenantId}`. */
export function parseRegistrationV3(raw: unknown): RegistrationRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new BadRequestException(BODY_NOT_AN_OBJECT);
  }
  const body = raw as Record<string, unknown>;
  const email = readEmail(body.email);
  const role = readUint(body, 'role', 'UserRegistrationRequest');
  const tenantId = readUint(body, 'tenantId', 'UserRegistrationRequest');
  const problems: string[] = [];
  if (role === 0) {
    problems.push('role: required and cannot be zero');
  }
  if (tenantId === 0) {
    problems.push('tenantId: required and cannot be zero');
  }
  if (email === '') {
    problems.push('email: required');
  }
  if (problems.length > 0) {
    throw new BadRequestException(problems.join(', '));
  }
  return { email, role, tenantId };
}

const schema = (role: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: {
    email: { type: 'string', description: 'the address the registration mail goes to' },
    role,
    tenantId: { type: 'integer', description: 'the tenant of the new user' },
  },
  required: ['email', 'role', 'tenantId'],
});

export class RegistrationV4Body {
  static readonly schema = schema({ type: 'string', description: 'the role of the new user, by name' });
  static readonly parse = (raw: unknown): RegistrationRequest => parseRegistrationV4(raw);
}

export class RegistrationV3Body {
  static readonly schema = schema({ type: 'integer', description: 'the role of the new user, by id' });
  static readonly parse = (raw: unknown): RegistrationRequest => parseRegistrationV3(raw);
}

/** POST user/reset_password: `{email}`; an unreadable body or address → `Malformed request: …`. */
export class PasswordResetBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: { email: { type: 'string', description: 'the address of the account' } },
    required: ['email'],
  };
  static readonly parse = (raw: unknown): { email: string } => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new BadRequestException(BODY_NOT_AN_OBJECT);
    }
    try {
      return { email: readEmail((raw as Record<string, unknown>).email) };
    } catch (error) {
      throw new BadRequestException(`Malformed request: ${(error as BadRequestException).message}`);
    }
  };
}
