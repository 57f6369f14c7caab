import 'reflect-metadata';
import { keyStoreKeyFrom } from 'src/config/key-store.config';
import { validateEnv } from 'src/config/env.validation';

describe('KEY_STORE_KEY', () => {
  const hex = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
  const base64 = Buffer.from(hex, 'hex').toString('base64');

  it('is optional: without it there is no key store key', () => {
    expect(validateEnv({}).KEY_STORE_KEY).toBeUndefined();
    expect(keyStoreKeyFrom(undefined)).toBeUndefined();
  });

  it('is 32 bytes given as 64 hex digits or in base64', () => {
    expect(keyStoreKeyFrom(validateEnv({ KEY_STORE_KEY: hex }).KEY_STORE_KEY)).toEqual(
      Buffer.from(hex, 'hex'),
    );
    expect(keyStoreKeyFrom(validateEnv({ KEY_STORE_KEY: base64 }).KEY_STORE_KEY)).toEqual(
      Buffer.from(hex, 'hex'),
    );
  });

  it.each([
    hex.slice(2),
    `${hex}00`,
    'not-a-key',
    Buffer.alloc(16).toString('base64'),
    `${base64.slice(0, -1)}`,
  ])('refuses %s', (value) => {
    expect(() => validateEnv({ KEY_STORE_KEY: value })).toThrow(
      'KEY_STORE_KEY: KEY_STORE_KEY must be 32 bytes: 64 hex digits or 44 characters of base64',
    );
  });
});
