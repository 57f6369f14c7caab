import { registerAs } from '@nestjs/config';
import { validateEnv } from 'src/config/env.validation';

/** The 32 bytes of KEY_STORE_KEY (hex or base64, checked by validateEnv), or undefined when unset. */
export function keyStoreKeyFrom(text: string | undefined): Buffer | undefined {
  if (text === undefined) {
    return undefined;
  }
  return /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
}

/** The key store's encryption key (docs/decisions.md#d65); never logged, never answered. */
export const keyStoreConfig = registerAs('keyStore', () => ({
  key: keyStoreKeyFrom(validateEnv(process.env).KEY_STORE_KEY),
}));

export type KeyStoreConfig = ReturnType<typeof keyStoreConfig>;
