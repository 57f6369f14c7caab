import {
  issueSessionCookie,
  readSessionCookie,
  SessionCookieError,
  sessionCookieFrom,
} from './session-cookie';

describe('session cookie', () => {
  const secret = 'x'.repeat(32);

  it('round-trips the user name', () => {
    expect(readSessionCookie(secret, issueSessionCookie(secret, 'alice'))).toBe('alice');
  });

  it('rejects another secret', () => {
    const cookie = issueSessionCookie(secret, 'alice');
    expect(() => readSessionCookie('y'.repeat(32), cookie)).toThrow(
      'bad signature - unauthorized, please log in',
    );
  });

  it('rejects a tampered payload', () => {
    const [, signature] = issueSessionCookie(secret, 'alice').split('--');
    const forged = Buffer.from(JSON.stringify({ auth_data: 'admin', expires: 9e9, by: 'x' })).toString(
      'base64url',
    );
    expect(() => readSessionCookie(secret, `${forged}--${signature}`)).toThrow(SessionCookieError);
  });

  it('rejects an expired cookie', () => {
    const issued = issueSessionCookie(secret, 'alice', Date.now() - 3601_000);
    expect(() => readSessionCookie(secret, issued)).toThrow(
      'signature expired - unauthorized, please log in',
    );
  });

  it('is found among the cookies of a request', () => {
    expect(sessionCookieFrom('a=1; mojolicious=abc--def; b=2')).toBe('abc--def');
    expect(sessionCookieFrom('mojolicious="x--y"')).toBe('x--y');
    expect(sessionCookieFrom('other=1')).toBeUndefined();
    expect(sessionCookieFrom('mojolicious=%E0%A4%A')).toBe('%E0%A4%A');
    expect(sessionCookieFrom(undefined)).toBeUndefined();
  });

  it('rejects a value without dashes', () => {
    expect(() => readSessionCookie(secret, 'abc')).toThrow(
      "error parsing cookie: malformed cookie 'abc' - no dashes",
    );
  });
});
