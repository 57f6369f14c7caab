import { registerAs } from '@nestjs/config';
import { validateEnv } from 'src/config/env.validation';
import { observabilityEnv } from 'src/config/observability.env';

export const appConfig = registerAs('app', () => {
  const env = validateEnv(process.env);
  const observability = observabilityEnv(process.env);
  return {
    metrics: observability.METRICS === 'on',
    metricsPort: observability.METRICS_PORT,
    metricsHost: observability.METRICS_HOST,
    auditSinkUrl: observability.AUDIT_SINK_URL,
    auditSinkQueue: observability.AUDIT_SINK_QUEUE,
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
