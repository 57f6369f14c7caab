import { isEmail } from 'class-validator';
import { GoField } from 'src/common/validation/go-field';
import { GoStruct } from 'src/common/validation/go-struct';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

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

/** The password fields: plain strings in the original's request type (a wrong type fails the decoding). */
const PASSWORDS = new Set(['confirmLocalPasswd', 'localPasswd']);

/**
 * `user` of the 3.x body, read as the original reads it (docs/original-behaviour.md#user-current):
 * the passwords decode with the request (Go's texts, the first failure answers); every other field is
 * read afterwards into the stored user (GoField.column: 32-bit ints, the columns' lengths,
 * docs/decisions.md#d46), each problem named after its field and all joined. A field that is absent
 * stays undefined (the stored value is kept); null clears an optional field. Unknown fields are ignored.
 */
@GoStruct('CurrentUserUpdateRequestUser', { failure: COULD_NOT_PARSE, withCause: true })
export class CurrentUserV3Fields {
  @GoField.column('string', { maxLength: 255 })
  addressLine1?: string | null;

  @GoField.column('string', { maxLength: 255 })
  addressLine2?: string | null;

  @GoField.column('string', { maxLength: 128 })
  city?: string | null;

  @GoField.column('string', { maxLength: 255 })
  company?: string | null;

  @GoField.string({ schema: { nullable: true, description: 'read, without effect' } })
  confirmLocalPasswd?: string;

  @GoField.column('string', { maxLength: 128 })
  country?: string | null;

  @GoField.column('string', {
    maxLength: 255,
    empty: 'email: cannot be null or an empty string',
    // The original's text for this one names no field.
    rule: (email) => (isEmail(email) ? undefined : 'must be a valid email address'),
  })
  email?: string;

  @GoField.column('string', { maxLength: 255, empty: "fullName: cannot be set to 'null' or empty string" })
  fullName?: string;

  @GoField.column('int')
  gid?: number | null;

  /** Only the user's own id may be given (`id: cannot change user id`, checked by the service); null reads as 0. */
  @GoField.column('int', { nullAs: 0, schema: { description: "the user's own id; it cannot change" } })
  id?: number;

  @GoField.string({ schema: { nullable: true, description: 'a new password; empty or null: no change' } })
  localPasswd?: string;

  @GoField.column('string', { maxLength: 64 })
  phoneNumber?: string | null;

  @GoField.column('string', { maxLength: 32 })
  postalCode?: string | null;

  @GoField.column('string', { maxLength: 65535 })
  publicSshKey?: string | null;

  /** The role by id. */
  @GoField.column('int', { empty: 'role: cannot be null', schema: { description: 'the role by id' } })
  role?: number;

  @GoField.column('string', { maxLength: 128 })
  stateOrProvince?: string | null;

  @GoField.column('int', { name: 'tenantID', empty: 'tenantID: cannot be null' })
  tenantId?: number;

  @GoField.column('int')
  uid?: number | null;

  @GoField.column('string', { maxLength: 128, empty: 'username: cannot be null or empty string' })
  username?: string;
}

/**
 * The 3.x body, `{"user": {...}}` (CurrentUserV3Fields): no body at all is `couldn't parse request:
 * EOF`, one that is not an object the API's own text, and one without `user` the original's.
 * `localPasswd` is the new password (empty or null: no change); `confirmLocalPasswd` is read but has
 * no effect, as in the original.
 */
@GoStruct<CurrentUserV3Body>('CurrentUserUpdateRequest', {
  failure: COULD_NOT_PARSE,
  withCause: true,
  eofWhenNoBody: true,
  notAnObject: BODY_NOT_AN_OBJECT,
  check: (body) => (body.user === undefined ? MISSING_USER_OBJECT : undefined),
})
export class CurrentUserV3Body {
  @GoField.struct(() => CurrentUserV3Fields, 'tc.CurrentUserUpdateRequestUser', {
    required: true,
    namedAfter: 'nested',
    schema: { description: 'the fields to change; those absent keep their values' },
  })
  user?: CurrentUserV3Fields;

  /** The fields the body gives (the rest keep their stored values). */
  get changes(): CurrentUserV3Changes {
    return Object.fromEntries(
      Object.entries(this.user ?? {}).filter(
        ([field, value]) => value !== undefined && !PASSWORDS.has(field),
      ),
    );
  }

  /** The new password, when one is given (not empty). */
  get localPasswd(): string | undefined {
    return this.user?.localPasswd === '' ? undefined : this.user?.localPasswd;
  }
}
