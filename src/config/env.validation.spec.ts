import 'reflect-metadata';
import { defaultWorkers, validateEnv } from './env.validation';

describe('ALLOWED_ORIGINS', () => {
  const origins = (value: string) => validateEnv({ ALLOWED_ORIGINS: value }).ALLOWED_ORIGINS;

  it('is empty by default', () => {
    expect(validateEnv({}).ALLOWED_ORIGINS).toEqual([]);
    expect(origins(' , ')).toEqual([]);
  });

  it('lists origins as browsers send them: lower case, without a default port or a trailing slash', () => {
    expect(origins('https://Portal.Example.net:443/, http://localhost:8080 ,http://[::1]:3000')).toEqual([
      'https://portal.example.net',
      'http://localhost:8080',
      'http://[::1]:3000',
    ]);
  });

  it.each([
    'https://portal.example.net/app',
    'ftp://portal.example.net',
    'https://user@portal.example.net',
    'https://a.example?x',
    'https://a.example#x',
    'portal.example.net',
    'https://a.example:99999',
    'null',
  ])('refuses %s, which is no origin', (value) => {
    expect(() => origins(`https://ok.example, ${value}`)).toThrow(
      'ALLOWED_ORIGINS: ALLOWED_ORIGINS must list origins such as https://portal.example.net or http://localhost:8080',
    );
  });
});

describe('WEB_CONCURRENCY', () => {
  const MYSQL = 'mysql://root@127.0.0.1:3306/db';

  it('is one worker per core with MySQL, one with SQLite, when unset', () => {
    expect(validateEnv({ DATABASE_URL: MYSQL }).WEB_CONCURRENCY).toBe(defaultWorkers());
    expect(defaultWorkers()).toBeGreaterThanOrEqual(1);
    expect(validateEnv({}).WEB_CONCURRENCY).toBe(1);
  });

  it('is what it is set to', () => {
    expect(validateEnv({ DATABASE_URL: MYSQL, WEB_CONCURRENCY: '1' }).WEB_CONCURRENCY).toBe(1);
    expect(validateEnv({ DATABASE_URL: MYSQL, WEB_CONCURRENCY: '3' }).WEB_CONCURRENCY).toBe(3);
  });
});

describe('KICKSTART_FILES_DIR', () => {
  it("is the original's /var/www/files by default, or the absolute path it is set to", () => {
    expect(validateEnv({}).KICKSTART_FILES_DIR).toBe('/var/www/files');
    expect(validateEnv({ KICKSTART_FILES_DIR: '' }).KICKSTART_FILES_DIR).toBe('/var/www/files');
    expect(validateEnv({ KICKSTART_FILES_DIR: '/srv/iso' }).KICKSTART_FILES_DIR).toBe('/srv/iso');
  });

  it.each(['files', './files', '/'])('refuses %p, which is no absolute directory', (value) => {
    expect(() => validateEnv({ KICKSTART_FILES_DIR: value })).toThrow(
      'KICKSTART_FILES_DIR: KICKSTART_FILES_DIR must be an absolute path',
    );
  });
});

describe('CDNI_DCDN_ID and CDNI_JWT_DECODING_SECRET', () => {
  const SECRET = 'a-shared-secret-of-at-least-32-chars';

  it('are unset by default, and accepted together', () => {
    expect(validateEnv({}).CDNI_DCDN_ID).toBeUndefined();
    const env = validateEnv({ CDNI_DCDN_ID: 'dcdn1', CDNI_JWT_DECODING_SECRET: SECRET });
    expect([env.CDNI_DCDN_ID, env.CDNI_JWT_DECODING_SECRET]).toEqual(['dcdn1', SECRET]);
  });

  it('must be set together', () => {
    expect(() => validateEnv({ CDNI_DCDN_ID: 'dcdn1' })).toThrow(
      'CDNI_JWT_DECODING_SECRET: CDNI_DCDN_ID and CDNI_JWT_DECODING_SECRET must be set together',
    );
    expect(() => validateEnv({ CDNI_JWT_DECODING_SECRET: SECRET })).toThrow(
      'CDNI_DCDN_ID: CDNI_DCDN_ID and CDNI_JWT_DECODING_SECRET must be set together',
    );
  });

  it('refuse a short secret and an identifier with spaces', () => {
    expect(() => validateEnv({ CDNI_DCDN_ID: 'dcdn1', CDNI_JWT_DECODING_SECRET: 'short' })).toThrow(
      'CDNI_JWT_DECODING_SECRET: CDNI_JWT_DECODING_SECRET must be at least 32 characters long',
    );
    expect(() => validateEnv({ CDNI_DCDN_ID: 'd cdn', CDNI_JWT_DECODING_SECRET: SECRET })).toThrow(
      'CDNI_DCDN_ID: CDNI_DCDN_ID must be one word without spaces',
    );
  });
});
