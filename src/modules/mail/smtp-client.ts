import { connect as connectTcp, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { connect as connectTls } from 'node:tls';

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (SMTPS); otherwise plain SMTP. */
  tls: boolean;
  user?: string;
  password?: string;
  timeoutMs: number;
}

export interface SmtpMessage {
  from: string;
  to: string;
  /** The whole message, headers and body, lines separated by CRLF or LF. */
  data: string;
}

/** An SMTP reply: its code and text lines. */
interface Reply {
  code: number;
  lines: string[];
}

/**
 * A minimal SMTP client (RFC 5321) for one message per connection: greeting, EHLO, optional AUTH
 * LOGIN, MAIL FROM, RCPT TO, DATA (dot-stuffed), QUIT. Any unexpected reply, a lost connection or
 * the timeout rejects with an Error naming the step.
 */
export async function sendSmtp(settings: SmtpSettings, message: SmtpMessage): Promise<void> {
  const socket: Socket = settings.tls
    ? connectTls({ host: settings.host, port: settings.port, servername: settings.host })
    : connectTcp({ host: settings.host, port: settings.port });
  const session = new SmtpSession(socket, settings.timeoutMs);
  try {
    await session.expect('greeting', 220);
    await session.command('EHLO', `EHLO ${hostname() || 'localhost'}`, 250);
    if (settings.user) {
      await session.command('AUTH', 'AUTH LOGIN', 334);
      await session.command('AUTH user', Buffer.from(settings.user).toString('base64'), 334);
      await session.command('AUTH password', Buffer.from(settings.password ?? '').toString('base64'), 235);
    }
    await session.command('MAIL FROM', `MAIL FROM:<${message.from}>`, 250);
    await session.command('RCPT TO', `RCPT TO:<${message.to}>`, 250, 251);
    await session.command('DATA', 'DATA', 354);
    await session.command('message', `${dotStuffed(message.data)}\r\n.`, 250);
    await session.command('QUIT', 'QUIT', 221).catch(() => undefined);
  } finally {
    session.close();
  }
}

/** CRLF line ends, and a leading `.` doubled (RFC 5321 §4.5.2). */
export function dotStuffed(data: string): string {
  return data
    .split(/\r?\n/)
    .map((line) => (line.startsWith('.') ? `.${line}` : line))
    .join('\r\n');
}

class SmtpSession {
  private buffer = '';
  private readonly replies: Reply[] = [];
  private waiting?: { resolve: (reply: Reply) => void; reject: (error: Error) => void };
  private failure?: Error;
  private current: string[] = [];

  constructor(
    private readonly socket: Socket,
    timeoutMs: number,
  ) {
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs);
    socket.on('data', (chunk: string) => this.receive(chunk));
    socket.on('timeout', () => this.fail(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('error', (error: Error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  async expect(step: string, ...codes: number[]): Promise<Reply> {
    const reply = await this.next().catch((error: Error) => {
      throw new Error(`SMTP ${step}: ${error.message}`);
    });
    if (!codes.includes(reply.code)) {
      throw new Error(`SMTP ${step}: ${reply.code} ${reply.lines.join(' ')}`);
    }
    return reply;
  }

  command(step: string, line: string, ...codes: number[]): Promise<Reply> {
    this.socket.write(`${line}\r\n`);
    return this.expect(step, ...codes);
  }

  close(): void {
    this.socket.destroy();
  }

  private next(): Promise<Reply> {
    const ready = this.replies.shift();
    if (ready) {
      return Promise.resolve(ready);
    }
    if (this.failure) {
      return Promise.reject(this.failure);
    }
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      const match = /^(\d{3})([ -]?)(.*)$/.exec(line);
      if (!match) {
        this.fail(new Error(`unreadable reply: ${line}`));
        return;
      }
      this.current.push(match[3]);
      if (match[2] !== '-') {
        this.deliver({ code: Number(match[1]), lines: this.current });
        this.current = [];
      }
    }
  }

  private deliver(reply: Reply): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) {
      waiting.resolve(reply);
    } else {
      this.replies.push(reply);
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }
}
