import { withClientSpan } from 'src/common/tracing/tracing';
import { Inject, Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { markOutsideEffect } from 'src/common/database/request-transaction';
import { mailConfig, type MailConfig } from 'src/config/mail.config';
import { sendSmtp } from './smtp-client';

export const MAIL_NOT_CONFIGURED = 'SMTP is not enabled; mail cannot be sent';
export const MAIL_FAILED = 'Failed to send email';

export interface Mail {
  to: string;
  subject: string;
  /** The HTML body. */
  html: string;
}

/** Sends mail through the configured SMTP server (docs/decisions.md#d78). */
@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);

  constructor(@Inject(mailConfig.KEY) private readonly config: MailConfig) {}

  /** Traffic Portal's address (no trailing slash), for links in mails. */
  get portalBaseUrl(): string {
    return this.config.portalBaseUrl;
  }

  /** 503 `SMTP is not enabled; mail cannot be sent` when no SMTP server is configured. */
  assertConfigured(): void {
    if (!this.config.host) {
      throw new ServiceUnavailableException(MAIL_NOT_CONFIGURED);
    }
  }

  /** Sends one mail; not configured or not accepted by the server → 503. */
  async send(mail: Mail): Promise<void> {
    this.assertConfigured();
    const data = [
      `From: ${this.config.from}`,
      `To: ${mail.to}`,
      'Content-Type: text/html; charset=utf-8',
      `Subject: ${mail.subject}`,
      '',
      mail.html,
    ].join('\r\n');
    // A mail cannot be taken back: the request is not run again after a certification failure.
    markOutsideEffect();
    try {
      await withClientSpan(
        'SMTP send',
        { 'server.address': this.config.host!, 'server.port': this.config.port },
        () =>
          sendSmtp(
            {
              host: this.config.host!,
              port: this.config.port,
              tls: this.config.tls,
              user: this.config.user,
              password: this.config.password,
              timeoutMs: this.config.timeoutMs,
            },
            { from: this.config.from, to: mail.to, data },
          ),
      );
    } catch (error) {
      this.logger.error(
        `sending mail to ${mail.to}: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw new ServiceUnavailableException(MAIL_FAILED);
    }
  }
}
