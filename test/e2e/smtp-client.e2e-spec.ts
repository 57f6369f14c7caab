import { startFakeSmtp } from 'test/e2e/support/fake-smtp';
import { dotStuffed, sendSmtp } from 'src/modules/mail/smtp-client';

describe('sendSmtp', () => {
  it('sends one message, signed in, with its lines dot-stuffed', async () => {
    const smtp = await startFakeSmtp();
    try {
      await sendSmtp(
        {
          host: '127.0.0.1',
          port: smtp.port,
          tls: false,
          user: 'mailer',
          password: 's3cret',
          timeoutMs: 2000,
        },
        { from: 'to@example.net', to: 'someone@example.com', data: 'Subject: hi\n\n.starts with a dot\nbye' },
      );
      expect(smtp.mails).toEqual([
        {
          from: 'to@example.net',
          to: ['someone@example.com'],
          data: 'Subject: hi\r\n\r\n.starts with a dot\r\nbye',
          auth: 'mailer:s3cret',
        },
      ]);
    } finally {
      await smtp.close();
    }
  });

  it('rejects naming the step the server refused', async () => {
    const smtp = await startFakeSmtp({ rejectRecipients: true });
    try {
      await expect(
        sendSmtp(
          { host: '127.0.0.1', port: smtp.port, tls: false, timeoutMs: 2000 },
          { from: 'a@example.net', to: 'b@example.com', data: 'x' },
        ),
      ).rejects.toThrow('SMTP RCPT TO: 550 5.1.1 no such mailbox');
    } finally {
      await smtp.close();
    }
  });

  it('rejects when nothing listens', async () => {
    const smtp = await startFakeSmtp();
    const port = smtp.port;
    await smtp.close();
    await expect(
      sendSmtp(
        { host: '127.0.0.1', port, tls: false, timeoutMs: 2000 },
        { from: 'a@x.y', to: 'b@x.y', data: 'x' },
      ),
    ).rejects.toThrow(/^SMTP greeting: /);
  });

  it('doubles a leading dot and ends lines with CRLF', () => {
    expect(dotStuffed('a\n.b\r\n..c')).toBe('a\r\n..b\r\n...c');
  });
});
