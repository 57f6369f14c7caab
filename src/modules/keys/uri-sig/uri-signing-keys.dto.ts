import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';

const KEY_TYPES = new Set(['oct', 'RSA', 'EC', 'OKP']);

type Jwk = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** One JSON Web Key as the original's JWK parser reads it: an object with a known `kty`. */
function readKey(value: unknown): Jwk {
  if (!isObject(value) || typeof value.kty !== 'string' || !KEY_TYPES.has(value.kty)) {
    throw new BadRequestException('malformed JSON');
  }
  return value;
}

/** A key set (`{"keys": [...], "renewal_kid": "..."}`) or a single key, as jwk.Parse accepts. */
function readSet(value: unknown): { keys: Jwk[]; renewalKid?: string } {
  if (!isObject(value)) {
    throw new BadRequestException('malformed JSON');
  }
  if ('keys' in value) {
    if (!Array.isArray(value.keys)) {
      throw new BadRequestException('malformed JSON');
    }
    const renewalKid = typeof value.renewal_kid === 'string' ? value.renewal_kid : undefined;
    return { keys: value.keys.map(readKey), renewalKid };
  }
  return { keys: [readKey(value)] };
}

const invalid = (text: string) => new BadRequestException(`invalid keyset: ${text}`);

/**
 * The body of POST/PUT deliveryservices/{xmlId}/urisignkeys: a map of issuer to JSON Web Key Set,
 * checked as the original's validateURIKeyset does (every key has `alg` and `kid`, exactly one set
 * names a `renewal_kid`, and a key has that kid). Kept as sent: it is stored and answered verbatim.
 */
export class UriSigningKeysDto {
  [issuer: string]: unknown;

  /** The shape the OpenAPI documents show: issuers' key sets (parse checks them). */
  static readonly schema: JsonSchema = {
    type: 'object',
    description: 'each property is an issuer; exactly one key set names a renewal_kid',
    properties: {
      '<issuer>': {
        type: 'object',
        properties: {
          renewal_kid: { type: 'string' },
          keys: {
            type: 'array',
            items: {
              type: 'object',
              required: ['kty', 'alg', 'kid'],
              properties: { kty: { type: 'string' }, alg: { type: 'string' }, kid: { type: 'string' } },
            },
          },
        },
      },
    },
  };

  // Hand parser: a map keyed by issuer (no fixed fields for class-validator), checked in the original's order with its texts.
  static parse(raw: unknown): UriSigningKeysDto {
    if (!isObject(raw)) {
      throw new BadRequestException('malformed JSON');
    }
    const sets = Object.entries(raw).map(([issuer, value]) => ({ issuer, ...readSet(value) }));
    let renewalKids = 0;
    let renewalKidMatched = false;
    for (const set of sets) {
      if (set.issuer === '') {
        throw invalid('JSON Keyset has no issuer');
      }
      if (set.renewalKid !== undefined) {
        renewalKids++;
      }
      for (const key of set.keys) {
        if (typeof key.alg !== 'string' || key.alg === '') {
          throw invalid('A Key has no algorithm, alg, specified');
        }
        if (typeof key.kid !== 'string' || key.kid === '') {
          throw invalid('A Key has no key id, kid, specified');
        }
        if (set.renewalKid !== undefined && set.renewalKid === key.kid) {
          renewalKidMatched = true;
        }
      }
    }
    if (renewalKids === 0) {
      throw invalid('No renewal_kid was found in any keyset');
    }
    if (renewalKids > 1) {
      throw invalid('More than one renewal_kid was found in the keysets');
    }
    if (!renewalKidMatched) {
      throw invalid('No key was found with a kid that matches the renewal kid');
    }
    return Object.assign(new UriSigningKeysDto(), raw);
  }
}
