import { collectionOf, readCollection } from 'src/common/validation/body-collections';
import { UriSigningKeysBody } from './uri-signing-keys.dto';
import { refusalOf } from 'test/support/refusal';

const read = (body: unknown): Promise<unknown> => {
  const collection = collectionOf(UriSigningKeysBody);
  if (!collection) {
    throw new Error('UriSigningKeysBody is no collection');
  }
  return readCollection(body, collection, { present: true });
};

const refusal = (body: unknown): Promise<string> => refusalOf(() => read(body));

describe('UriSigningKeysBody', () => {
  const key = { kty: 'oct', k: 'c2VjcmV0', alg: 'HS256', kid: 'a' };

  it('answers the body as sent, key sets and single keys alike', async () => {
    const body = { one: { renewal_kid: 'a', keys: [key] }, two: { ...key, kid: 'b', extra: 1 } };
    expect(await read(body)).toBe(body);
  });

  it('reads a single key as a set of one, whose renewal_kid does not count', async () => {
    expect(await refusal({ one: { ...key, renewal_kid: 'a' } })).toBe(
      'invalid keyset: No renewal_kid was found in any keyset',
    );
    expect(await refusal({ one: { renewal_kid: 'a', keys: [key] }, two: { ...key, alg: '' } })).toBe(
      'invalid keyset: A Key has no algorithm, alg, specified',
    );
  });

  it('refuses a malformed set anywhere before any keyset problem', async () => {
    const good = { renewal_kid: 'a', keys: [key] };
    expect(await refusal({ '': good, x: { keys: null, ...key } })).toBe('malformed JSON');
    expect(await refusal({ '': good, x: { keys: [{ kty: 'none' }] } })).toBe('malformed JSON');
    expect(await refusal({ '': good, x: { kty: 5 } })).toBe('malformed JSON');
    expect(await refusal({ '': good, x: null })).toBe('malformed JSON');
    expect(await refusal({ '': good })).toBe('invalid keyset: JSON Keyset has no issuer');
    expect(await refusal({ x: { ...good, renewal_kid: 5 } })).toBe(
      'invalid keyset: No renewal_kid was found in any keyset',
    );
  });
});
