import { createHmac } from 'node:crypto';
import {
  issueSessionCookie,
  readSessionCookie,
  SessionCookieError,
  SessionCookieReader,
  sessionCookieFrom,
  sessionCookieOptions,
} from './session-cookie';

describe('session cookie', () => {
  const secret = 'x'.repeat(32);
  const alice = { username: 'alice', userId: 7, generation: 3, sessionId: 'AAAAAAAAAAAAAAAAAAAAAA' };

  /** A cookie with this payload, signed with the secret, as an earlier version or a bug might sign it. */
  const signed = (data: unknown): string => {
    const payload = Buffer.from(JSON.stringify(data)).toString('base64url');
    return `${payload}--${createHmac('sha256', secret).update(payload).digest('hex')}`;
  };

  it('round-trips the user name, id, session generation and session id', () => {
    expect(readSessionCookie(secret, issueSessionCookie(secret, alice))).toEqual(alice);
  });

  it('keeps the original format: auth_data, expires and by next to id and gen', () => {
    const [payload] = issueSessionCookie(secret, alice, 1_700_000_000_000).split('--');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).toEqual({
      auth_data: 'alice',
      id: 7,
      gen: 3,
      sid: 'AAAAAAAAAAAAAAAAAAAAAA',
      expires: 1_700_003_600,
      by: 'trafficcontrol-go-tocookie',
    });
  });

  it('rejects another secret', () => {
    const cookie = issueSessionCookie(secret, alice);
    expect(() => readSessionCookie('y'.repeat(32), cookie)).toThrow(
      'bad signature - unauthorized, please log in',
    );
  });

  it('rejects a tampered payload', () => {
    const [, signature] = issueSessionCookie(secret, alice).split('--');
    const forged = Buffer.from(
      JSON.stringify({ auth_data: 'admin', id: 1, gen: 0, expires: 9e9, by: 'x' }),
    ).toString('base64url');
    expect(() => readSessionCookie(secret, `${forged}--${signature}`)).toThrow(SessionCookieError);
  });

  it('rejects an expired cookie', () => {
    const issued = issueSessionCookie(secret, alice, Date.now() - 3601_000);
    expect(() => readSessionCookie(secret, issued)).toThrow(
      'signature expired - unauthorized, please log in',
    );
  });

  it.each([
    ['without id and generation (an earlier version)', { auth_data: 'alice', expires: 9e9, by: 'x' }],
    ['with a negative generation', { auth_data: 'alice', id: 7, gen: -1, expires: 9e9 }],
    ['with a fractional id', { auth_data: 'alice', id: 7.5, gen: 0, expires: 9e9 }],
    ['with a text generation', { auth_data: 'alice', id: 7, gen: '0', expires: 9e9 }],
    ['without a session id (an earlier version)', { auth_data: 'alice', id: 7, gen: 0, expires: 9e9 }],
    ['with a short session id', { auth_data: 'alice', id: 7, gen: 0, sid: 'abc', expires: 9e9 }],
    ['with a numeric session id', { auth_data: 'alice', id: 7, gen: 0, sid: 12, expires: 9e9 }],
    ['that is not an object', null],
  ])('rejects a signed cookie %s as malformed', (_case, data) => {
    const cookie = signed(data);
    expect(() => readSessionCookie(secret, cookie)).toThrow(
      `error parsing cookie: malformed cookie '${cookie}'`,
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

  it('is HttpOnly and SameSite=Lax, and Secure exactly when the request came over HTTPS', () => {
    expect(sessionCookieOptions({ secure: false })).toEqual({
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: false,
    });
    expect(sessionCookieOptions({ secure: true })).toMatchObject({ secure: true, sameSite: 'lax' });
  });

  describe('SessionCookieReader', () => {
    it("reads as readSessionCookie reads, verifying a cookie's signature once", () => {
      const reader = new SessionCookieReader(secret);
      const cookie = issueSessionCookie(secret, alice);
      expect(reader.read(cookie)).toEqual(alice);
      // Were the signature checked again, it would now fail: the reader answers what it verified.
      (reader as unknown as { secret: string }).secret = 'z'.repeat(32);
      expect(reader.read(cookie)).toEqual(alice);
      expect(() => reader.read(issueSessionCookie(secret, { ...alice, generation: 4 }))).toThrow(
        'bad signature - unauthorized, please log in',
      );
    });

    it('checks expiry on every read', () => {
      const reader = new SessionCookieReader(secret);
      const issuedAt = 1_700_000_000_000;
      const cookie = issueSessionCookie(secret, alice, issuedAt);
      expect(reader.read(cookie, issuedAt + 1000)).toEqual(alice);
      expect(() => reader.read(cookie, issuedAt + 3_600_000)).toThrow(
        new SessionCookieError('signature expired - unauthorized, please log in'),
      );
      expect(() => reader.read(cookie, issuedAt + 3_600_000)).toThrow(SessionCookieError);
    });

    it('keeps refusing what it refused: another secret, a tampered payload', () => {
      const reader = new SessionCookieReader(secret);
      const other = issueSessionCookie('y'.repeat(32), alice);
      const [, signature] = issueSessionCookie(secret, alice).split('--');
      const forged = `${Buffer.from(JSON.stringify({ auth_data: 'root', id: 1, gen: 0, expires: 4e9 })).toString('base64url')}--${signature}`;
      for (let i = 0; i < 2; i++) {
        expect(() => reader.read(other)).toThrow('bad signature - unauthorized, please log in');
        expect(() => reader.read(forged)).toThrow('bad signature - unauthorized, please log in');
      }
    });
  });
});
