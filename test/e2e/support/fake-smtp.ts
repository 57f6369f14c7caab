import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent, dot-stuffing undone, lines joined with CRLF. */
  data: string;
  /** `user:password` when the client signed in with AUTH LOGIN. */
  auth?: string;
}

export interface FakeSmtp {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A tiny SMTP server on 127.0.0.1 for tests: accepts EHLO, AUTH LOGIN, MAIL, RCPT, DATA and QUIT,
 * and keeps what it received. `rejectRecipients` answers 550 to every RCPT TO.
 */
export async function startFakeSmtp(options: { rejectRecipients?: boolean } = {}): Promise<FakeSmtp> {
  const mails: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let mode: 'command' | 'user' | 'password' | 'data' = 'command';
    let mail: ReceivedMail = { from: '', to: [], data: '' };
    let user = '';
    let data: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake.smtp ESMTP ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (mode === 'data') {
          if (line === '.') {
            mail.data = data.join('\r\n');
            mails.push(mail);
            mail = { from: '', to: [], data: '' };
            data = [];
            mode = 'command';
            reply('250 2.0.0 queued');
          } else {
            data.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        if (mode === 'user') {
          user = Buffer.from(line, 'base64').toString();
          mode = 'password';
          reply('334 UGFzc3dvcmQ6');
          continue;
        }
        if (mode === 'password') {
          mail.auth = `${user}:${Buffer.from(line, 'base64').toString()}`;
          mode = 'command';
          reply('235 2.7.0 Authentication successful');
          continue;
        }
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO') {
          reply('250-fake.smtp greets you');
          reply('250 AUTH LOGIN');
        } else if (line.toUpperCase() === 'AUTH LOGIN') {
          mode = 'user';
          reply('334 VXNlcm5hbWU6');
        } else if (verb === 'MAIL') {
          mail.from = /<(.*)>/.exec(line)?.[1] ?? '';
          reply('250 2.1.0 Ok');
        } else if (verb === 'RCPT') {
          if (options.rejectRecipients) {
            reply('550 5.1.1 no such mailbox');
          } else {
            mail.to.push(/<(.*)>/.exec(line)?.[1] ?? '');
            reply('250 2.1.5 Ok');
          }
        } else if (verb === 'DATA') {
          mode = 'data';
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 2.0.0 Bye');
          socket.end();
        } else {
          reply('502 5.5.2 command not recognized');
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
