import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are stored as the original stores them: `SCRYPT:N:r:p:<base64 salt>:<base64 key>`
 * (docs/original-behaviour.md#sign-in), with Node's own scrypt.
 */
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 });
  return `SCRYPT:${N}:${R}:${P}:${salt.toString('base64')}:${key.toString('base64')}`;
}

/** Stands in for a missing user's hash so that unknown and known users take the same time. */
const DUMMY_HASH = `SCRYPT:${N}:${R}:${P}:${Buffer.alloc(16).toString('base64')}:${Buffer.alloc(KEY_LENGTH).toString('base64')}`;

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? DUMMY_HASH).split(':');
  if (parts.length !== 6 || parts[0] !== 'SCRYPT') {
    return false;
  }
  const [, n, r, p, salt, key] = parts;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return stored !== null && stored !== undefined && timingSafeEqual(actual, expected);
}
