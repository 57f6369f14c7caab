import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { hostname } from 'node:os';
import { connect, type Socket } from 'node:net';

/** One change-log entry as GET logs shows it: when, level, who, and the same message text. */
export interface AuditEntry {
  time: Date;
  level: string;
  user: string;
  message: string;
}

/** Where entries go; `send` resolves once the entry was handed over, rejects when it could not be. */
export interface AuditTransport {
  readonly kind: 'syslog' | 'webhook';
  send(entry: AuditEntry): Promise<void>;
  close(): void;
}

/** Facility 13 (log audit), severity 5 (notice). */
const PRIORITY = 13 * 8 + 5;
/** The structured-data id: `audit` under the enterprise number RFC 5612 reserves for examples. */
const SD_ID = 'audit@32473';
const SEND_TIMEOUT_MS = 5000;

function sdValue(value: string): string {
  return value.replace(/[\\"\]]/g, (c) => `\\${c}`);
}

/** A header field of RFC 5424: printable US-ASCII, no spaces, at most `max` characters; `-` when empty. */
function headerField(value: string, max: number): string {
  const field = value.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return field === '' ? '-' : field;
}

/**
 * The entry as one RFC 5424 message: `<109>1 TIMESTAMP HOST APP PID APICHANGE [audit@32473 user=".."
 * level=".."] message`, the message being the change log's text.
 */
export function syslogMessage(entry: AuditEntry, app: string, host = hostname()): string {
  return (
    `<${PRIORITY}>1 ${entry.time.toISOString()} ${headerField(host, 255)} ${headerField(app, 48)} ` +
    `${process.pid} ${headerField(entry.level, 32)} ` +
    `[${SD_ID} user="${sdValue(entry.user)}" level="${sdValue(entry.level)}"] ${entry.message}`
  );
}

/** Syslog over UDP: one datagram per entry. */
export class SyslogUdpTransport implements AuditTransport {
  readonly kind = 'syslog';
  private socket?: UdpSocket;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly app: string,
  ) {}

  send(entry: AuditEntry): Promise<void> {
    this.socket ??= createSocket(this.host.includes(':') ? 'udp6' : 'udp4').unref();
    const datagram = Buffer.from(syslogMessage(entry, this.app));
    return new Promise((resolve, reject) => {
      this.socket!.send(datagram, this.port, this.host, (error) => (error ? reject(error) : resolve()));
    });
  }

  close(): void {
    this.socket?.close();
    this.socket = undefined;
  }
}

/** Syslog over TCP with octet-counting framing (RFC 6587): `LENGTH SP MESSAGE`, one connection kept open. */
export class SyslogTcpTransport implements AuditTransport {
  readonly kind = 'syslog';
  private socket?: Socket;
  private connecting?: Promise<Socket>;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly app: string,
  ) {}

  private open(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) {
      return Promise.resolve(this.socket);
    }
    this.connecting ??= new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: this.host, port: this.port });
      socket.setTimeout(SEND_TIMEOUT_MS, () =>
        socket.destroy(new Error('syslog server did not answer in time')),
      );
      socket.once('connect', () => {
        socket.setTimeout(0);
        socket.on('error', () => socket.destroy());
        this.socket = socket;
        resolve(socket);
      });
      socket.once('error', reject);
    }).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  async send(entry: AuditEntry): Promise<void> {
    const socket = await this.open();
    const message = Buffer.from(syslogMessage(entry, this.app));
    const frame = Buffer.concat([Buffer.from(`${message.length} `), message]);
    await new Promise<void>((resolve, reject) => {
      socket.write(frame, (error) => {
        if (error) {
          socket.destroy();
          reject(error);
        } else {
          resolve();
        }
      });
    });
  }

  close(): void {
    this.socket?.end();
    this.socket = undefined;
  }
}

/** An HTTP(S) webhook: a JSON POST per entry; any answer but 2xx is a failure (retried by the sink). */
export class WebhookTransport implements AuditTransport {
  readonly kind = 'webhook';

  constructor(private readonly url: string) {}

  async send(entry: AuditEntry): Promise<void> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        time: entry.time.toISOString(),
        level: entry.level,
        user: entry.user,
        message: entry.message,
      }),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) {
      throw new Error(`the webhook answered HTTP ${response.status}`);
    }
  }

  close(): void {}
}

/** The transport AUDIT_SINK_URL names (validated at start-up). */
export function transportFor(url: string, app: string): AuditTransport {
  const syslog = /^syslog\+(udp|tcp):\/\/(.+):(\d+)$/.exec(url);
  if (syslog) {
    const host = syslog[2].replace(/^\[(.*)\]$/, '$1');
    const port = Number(syslog[3]);
    return syslog[1] === 'udp'
      ? new SyslogUdpTransport(host, port, app)
      : new SyslogTcpTransport(host, port, app);
  }
  return new WebhookTransport(url);
}
