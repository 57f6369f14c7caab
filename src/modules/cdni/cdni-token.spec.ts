import { createHmac } from 'node:crypto';
import { bearerTokenOf, CdniTokenError, signHs256, verifyHs256 } from './cdni-token';

const SECRET = 'a-shared-secret-of-at-least-32-chars';

const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function signedWith(header: unknown, claims: unknown, secret = SECRET): string {
  const signing = `${part(header)}.${part(claims)}`;
  return `${signing}.${createHmac('sha256', secret).update(signing).digest('base64url')}`;
}

const refusal = (token: string): string => {
  try {
    verifyHs256(token, SECRET);
  } catch (error) {
    if (error instanceof CdniTokenError) {
      return error.message;
    }
    throw error;
  }
  throw new Error('accepted');
};

describe('verifyHs256', () => {
  it('answers the claims of a token signed with the secret', () => {
    const token = signHs256({ iss: 'ucdn1', aud: 'dcdn1', exp: 1700000000.9 }, SECRET);
    expect(verifyHs256(token, SECRET)).toEqual({
      issuer: 'ucdn1',
      audience: ['dcdn1'],
      expiration: 1700000000,
    });
  });

  it('reads a list audience and absent claims', () => {
    expect(verifyHs256(signHs256({ aud: ['a', 'b'] }, SECRET), SECRET)).toEqual({
      issuer: '',
      audience: ['a', 'b'],
      expiration: undefined,
    });
  });

  it('refuses another secret, a changed payload and a cut signature', () => {
    const token = signHs256({ iss: 'ucdn1', aud: 'dcdn1', exp: 1 }, SECRET);
    expect(() => verifyHs256(token, `${SECRET}x`)).toThrow('failed to verify signature');
    const [header, , signature] = token.split('.');
    expect(refusal(`${header}.${part({ iss: 'other', aud: 'dcdn1', exp: 1 })}.${signature}`)).toBe(
      'failed to verify signature',
    );
    expect(refusal(`${token.slice(0, -2)}`)).toBe('failed to verify signature');
    expect(refusal(`${header}.${token.split('.')[1]}.`)).toBe('failed to verify signature');
  });

  it('refuses unsigned tokens and other algorithms', () => {
    expect(refusal(`${part({ alg: 'none' })}.${part({ iss: 'u' })}.`)).toBe(
      'the token is not signed with HS256',
    );
    expect(refusal(signedWith({ alg: 'HS512' }, { iss: 'u' }))).toBe('the token is not signed with HS256');
    expect(refusal(signedWith({}, { iss: 'u' }))).toBe('the token is not signed with HS256');
  });

  it.each(['', 'abc', 'a.b', 'a.b.c.d', '!!.e30.x', `${part([1])}.e30.x`, `${part({ alg: 'HS256' })}.@@.x`])(
    'refuses %p as unreadable',
    (token) => {
      expect(['failed to parse token', 'failed to verify signature']).toContain(refusal(token));
    },
  );

  it('refuses claims of the wrong type', () => {
    expect(refusal(signedWith({ alg: 'HS256' }, { iss: 5 }))).toBe('iss must be a string');
    expect(refusal(signedWith({ alg: 'HS256' }, { aud: [1] }))).toBe(
      'aud must be a string or an array of strings',
    );
    expect(refusal(signedWith({ alg: 'HS256' }, { exp: '1' }))).toBe('exp must be a number');
    expect(refusal(signedWith({ alg: 'HS256' }, [1]))).toBe('failed to parse token');
  });
});

describe('bearerTokenOf', () => {
  it('takes the word after Bearer, else the access_token cookie', () => {
    expect(bearerTokenOf('Bearer abc', 'access_token=def')).toBe('abc');
    expect(bearerTokenOf('Bearer', 'access_token=def')).toBe('');
    expect(bearerTokenOf('Basic xyz', 'a=1; access_token=def')).toBe('def');
    expect(bearerTokenOf(undefined, undefined)).toBe('');
  });
});
