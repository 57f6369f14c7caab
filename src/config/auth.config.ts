import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { registerAs } from '@nestjs/config';
import { validateServerEnv } from 'src/config/env.validation';

/**
 * With MySQL the secret must come from the environment (every instance shares it). On the embedded
 * default one is generated and kept next to the SQLite file so that restarts keep sessions valid.
 */
function embeddedSecret(sqlitePath: string): string {
  if (sqlitePath === ':memory:') {
    return randomBytes(32).toString('hex');
  }
  const file = join(dirname(sqlitePath), 'session-secret');
  if (existsSync(file)) {
    return readFileSync(file, 'utf8').trim();
  }
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Only the server reads it (the command line signs nobody in): with MySQL, SESSION_SECRET is required. */
export const authConfig = registerAs('auth', () => {
  const env = validateServerEnv(process.env);
  return {
    sessionSecret: env.SESSION_SECRET ?? embeddedSecret(env.SQLITE_PATH),
    adminPassword: env.ADMIN_PASSWORD,
    loginMaxFailures: env.LOGIN_MAX_FAILURES,
    loginWindowSeconds: env.LOGIN_WINDOW_SECONDS,
    sessionCacheSeconds: env.SESSION_CACHE_SECONDS,
  };
});

export type AuthConfig = ReturnType<typeof authConfig>;
