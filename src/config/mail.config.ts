import { registerAs } from '@nestjs/config';
import { validateEnv } from 'src/config/env.validation';

/** The SMTP server mails go through (docs/decisions.md#d78); `host` undefined: mail is not configured. */
export const mailConfig = registerAs('mail', () => {
  const env = validateEnv(process.env);
  return {
    host: env.SMTP_HOST,
    port: env.SMTP_PORT,
    tls: env.SMTP_TLS,
    from: env.SMTP_FROM,
    user: env.SMTP_USER,
    password: env.SMTP_PASSWORD,
    timeoutMs: env.SMTP_TIMEOUT_MS,
    portalBaseUrl: env.PORTAL_BASE_URL.replace(/\/+$/, ''),
  };
});

export type MailConfig = ReturnType<typeof mailConfig>;
