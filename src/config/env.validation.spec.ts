import 'reflect-metadata';
import { validateEnv } from './env.validation';

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
