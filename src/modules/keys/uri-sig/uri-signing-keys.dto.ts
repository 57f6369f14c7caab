import { MapOf } from 'src/common/validation/body-collections';
import { GoField } from 'src/common/validation/go-field';
import { GoDecodeError, GoStruct } from 'src/common/validation/go-struct';

const KEY_TYPES = new Set(['oct', 'RSA', 'EC', 'OKP']);

type Jwk = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** One JSON Web Key as the original's JWK parser reads it: an object with a known `kty`. */
function isKey(value: unknown): value is Jwk {
  return isObject(value) && typeof value.kty === 'string' && KEY_TYPES.has(value.kty);
}

const KEY_SCHEMA = {
  type: 'object',
  required: ['kty', 'alg', 'kid'],
  properties: { kty: { type: 'string' }, alg: { type: 'string' }, kid: { type: 'string' } },
};

const SINGLE = 'of a single key given instead of a key set';

/**
 * One issuer's key set (`{"keys": [...], "renewal_kid": "..."}`) or a single key standing for a set
 * of one, as jwk.Parse accepts; anything else is `malformed JSON`.
 */
@GoStruct<UriSigningKeySet>('JWKSet', {
  failure: 'malformed JSON',
  notAnObject: 'malformed JSON',
  check: (set) => {
    if (set.keys === undefined) {
      const { kty, alg, kid } = set;
      if (typeof kty !== 'string' || !KEY_TYPES.has(kty)) {
        return 'malformed JSON';
      }
      set.keys = [{ kty, alg, kid }];
      set.renewalKid = undefined;
    }
    return undefined;
  },
})
export class UriSigningKeySet {
  /** The set's keys: present (null included), it must be an array of keys. */
  @GoField.decoded(
    (value) => {
      if (!Array.isArray(value) || !value.every(isKey)) {
        throw new GoDecodeError('');
      }
      return value;
    },
    { type: 'array', items: KEY_SCHEMA },
    { decodesNull: true },
  )
  keys?: Jwk[];

  /** A renewal kid that is no string is not one. */
  @GoField.decoded(
    (value) => (typeof value === 'string' ? value : undefined),
    { type: 'string' },
    {
      key: 'renewal_kid',
    },
  )
  renewalKid?: string;

  @GoField.any({ schema: { type: 'string', description: `the kty ${SINGLE}` } })
  kty?: unknown;

  @GoField.any({ schema: { type: 'string', description: `the alg ${SINGLE}` } })
  alg?: unknown;

  @GoField.any({ schema: { type: 'string', description: `the kid ${SINGLE}` } })
  kid?: unknown;
}

const invalid = (text: string) => `invalid keyset: ${text}`;

/**
 * The checks of the original's validateURIKeyset, in its order: every set has an issuer, every key
 * `alg` and `kid`, exactly one set names a `renewal_kid`, and a key of it has that kid.
 */
export function uriKeysetProblem(sets: Record<string, UriSigningKeySet>): string | undefined {
  let renewalKids = 0;
  let renewalKidMatched = false;
  for (const [issuer, set] of Object.entries(sets)) {
    if (issuer === '') {
      return invalid('JSON Keyset has no issuer');
    }
    if (set.renewalKid !== undefined) {
      renewalKids++;
    }
    for (const key of set.keys ?? []) {
      if (typeof key.alg !== 'string' || key.alg === '') {
        return invalid('A Key has no algorithm, alg, specified');
      }
      if (typeof key.kid !== 'string' || key.kid === '') {
        return invalid('A Key has no key id, kid, specified');
      }
      if (set.renewalKid !== undefined && set.renewalKid === key.kid) {
        renewalKidMatched = true;
      }
    }
  }
  if (renewalKids === 0) {
    return invalid('No renewal_kid was found in any keyset');
  }
  if (renewalKids > 1) {
    return invalid('More than one renewal_kid was found in the keysets');
  }
  return renewalKidMatched ? undefined : invalid('No key was found with a kid that matches the renewal kid');
}

/** The URI signing keys as stored and answered: the body as sent. */
export type UriSigningKeysDto = Record<string, unknown>;

/**
 * The body of POST/PUT deliveryservices/{xmlId}/urisignkeys: a map of issuer to JSON Web Key Set,
 * checked as the original's validateURIKeyset does (uriKeysetProblem). Kept as sent: it is stored and
 * answered verbatim.
 */
export const UriSigningKeysBody = MapOf<UriSigningKeySet>(UriSigningKeySet, {
  invalid: 'malformed JSON',
  check: uriKeysetProblem,
  verbatim: true,
  description: 'each property is an issuer; exactly one key set names a renewal_kid',
});
