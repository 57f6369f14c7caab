import { GoField } from 'src/common/validation/go-field';
import { GoDecodeError, type GoDecoder, goJsonKind, GoStruct } from 'src/common/validation/go-struct';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/**
 * An e-mail address as the original's `rfc.EmailAddress` reads it from JSON: a string that parses
 * as an address (`Couldn't parse '<s>' as an email address: mail: …`), trimmed; null or absent
 * leaves the field ''.
 */
const readEmail: GoDecoder = (value) => {
  if (typeof value !== 'string') {
    throw new GoDecodeError(`JSON ${JSON.stringify(value)} not quoted: invalid syntax`);
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
    throw new GoDecodeError(`Couldn't parse '${value}' as an email address: mail: ${problem}`);
  }
  return address;
};

const MAX_UINT = 4294967295;

/**
 * A Go `uint`, in Go's words when a value is not one: `cannot unmarshal number 1.5 …` for a number,
 * `cannot unmarshal string …` for another JSON type. Beyond 32 bits is refused too (the column's
 * range), in the words Go uses for a number its type cannot hold.
 */
const readUint: GoDecoder = (value, at) => {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_UINT) {
    return value;
  }
  const shown = typeof value === 'number' ? `number ${value}` : goJsonKind(value);
  throw new GoDecodeError(
    `json: cannot unmarshal ${shown} into Go struct field ${at.struct}.${at.path} of type uint`,
  );
};

const EMAIL = { type: 'string', description: 'the address the registration mail goes to' };
const TENANT = { type: 'integer', description: 'the tenant of the new user' };

/** POST users/register, as read (docs/original-behaviour.md#user-registration). */
export interface RegistrationRequest {
  email: string;
  /** The role by name (4.0+) or by id (3.x). */
  role: string | number;
  tenantId: number;
}

/** The checks' texts after decoding, joined as the original joins them. */
function registrationProblems(body: RegistrationRequest, role: string): string | undefined {
  const problems: string[] = [];
  if (role !== '') {
    problems.push(role);
  }
  if (body.tenantId === 0) {
    problems.push('tenantId: required and cannot be zero');
  }
  if (body.email === '') {
    problems.push('email: required');
  }
  return problems.length > 0 ? problems.join(', ') : undefined;
}

const REGISTRATION = { failure: '', withCause: true, notAnObject: BODY_NOT_AN_OBJECT };

/** The body of 4.0+: `{email, role (name), tenantId}`. */
@GoStruct<RegistrationV4Body>('UserRegistrationRequestV4', {
  ...REGISTRATION,
  check: (body) => registrationProblems(body, body.role === '' ? 'role: required and cannot be empty' : ''),
})
export class RegistrationV4Body implements RegistrationRequest {
  @GoField.decoded(readEmail, EMAIL, { required: true })
  email = '';

  @GoField.string({ required: true, schema: { description: 'the role of the new user, by name' } })
  role = '';

  @GoField.decoded(readUint, TENANT, { required: true })
  tenantId = 0;
}

/** The body of 3.x: `{email, role (id), tenantId}`. */
@GoStruct<RegistrationV3Body>('UserRegistrationRequest', {
  ...REGISTRATION,
  check: (body) => registrationProblems(body, body.role === 0 ? 'role: required and cannot be zero' : ''),
})
export class RegistrationV3Body implements RegistrationRequest {
  @GoField.decoded(readEmail, EMAIL, { required: true })
  email = '';

  @GoField.decoded(
    readUint,
    { type: 'integer', description: 'the role of the new user, by id' },
    { required: true },
  )
  role = 0;

  @GoField.decoded(readUint, TENANT, { required: true })
  tenantId = 0;
}

/** POST user/reset_password: `{email}`; an unreadable address → `Malformed request: …`. */
@GoStruct('PasswordResetRequest', {
  failure: 'Malformed request: ',
  withCause: true,
  notAnObject: BODY_NOT_AN_OBJECT,
})
export class PasswordResetBody {
  @GoField.decoded(
    readEmail,
    { type: 'string', description: 'the address of the account' },
    { required: true },
  )
  email = '';
}
