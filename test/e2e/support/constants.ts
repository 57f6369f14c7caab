import { resolve } from 'node:path';

export const ADMIN_PASSWORD = 'e2e-admin-password';
export const SESSION_SECRET = 'e2e-session-secret-of-at-least-32-characters';
/** Password given to every user the suites create. */
export const USER_PASSWORD = 'a-long-and-unusual-password-42';
/** The key store's encryption key during the tests (32 bytes, hex). */
export const KEY_STORE_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

/** The kickstart directory of the e2e runs: its `osversions.json` is what GET osversions answers. */
export const KICKSTART_FILES_DIR = resolve(__dirname, 'kickstart');

/** The CDNi settings during the tests: this dCDN's identifier and the key of the uCDNs' tokens. */
export const CDNI_DCDN_ID = 'e2e-dcdn';
export const CDNI_JWT_DECODING_SECRET = 'e2e-cdni-token-secret-of-32-characters';
