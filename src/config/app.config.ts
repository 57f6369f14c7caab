import { registerAs } from '@nestjs/config';
import { validateEnv } from 'src/config/env.validation';

export const appConfig = registerAs('app', () => {
  const env = validateEnv(process.env);
  return {
    port: env.PORT,
    host: env.HOST,
    serverName: env.SERVER_NAME,
    bodyLimit: env.BODY_LIMIT,
    trustProxy: env.TRUST_PROXY,
    allowedOrigins: env.ALLOWED_ORIGINS,
    tlsCertFile: env.TLS_CERT_FILE,
    tlsKeyFile: env.TLS_KEY_FILE,
    wireCompat: env.WIRE_COMPAT,
    checkWireTimes: env.WIRE_TIMES_CHECK,
    checkInsertStatements: env.INSERT_STATEMENTS_CHECK,
  };
});

export type AppConfig = ReturnType<typeof appConfig>;
