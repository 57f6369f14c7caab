import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP proxy the test controls, standing between the service and its database: `cut()` drops every
 * connection and refuses new ones (the database "goes away"), `restore()` lets them through again;
 * `cutBefore(text)` does the cut when the service next sends a statement containing `text`, before
 * it reaches the database (the database goes away in the middle of a transaction). `stall()` keeps
 * every connection open but forwards nothing, and accepts new ones without ever greeting them (the
 * database, or the network to it, hangs); `restore()` then delivers what was held back.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private open = true;
  private stalled = false;
  private held: (() => void)[] = [];
  private trigger?: Buffer;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      if (!this.open) {
        client.destroy();
        return;
      }
      this.track(client);
      if (this.stalled) {
        this.held.push(() => this.forward(client));
        return;
      }
      this.forward(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  /** What a stall holds back so far: statements sent on open connections, and new connections. */
  get heldBack(): number {
    return this.held.length;
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private forward(client: Socket): void {
    if (client.destroyed) {
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    this.track(upstream);
    client.on('data', (chunk: Buffer) => {
      if (this.trigger && chunk.includes(this.trigger)) {
        this.trigger = undefined;
        this.cut();
        return;
      }
      const send = () => {
        if (!upstream.destroyed) {
          upstream.write(chunk);
        }
      };
      if (this.stalled) {
        this.held.push(send);
      } else {
        send();
      }
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  cut(): void {
    this.open = false;
    for (const socket of this.sockets) {
      socket.destroy();
    }
  }

  cutBefore(text: string): void {
    this.trigger = Buffer.from(text, 'utf8');
  }

  stall(): void {
    this.stalled = true;
  }

  restore(): void {
    this.open = true;
    this.stalled = false;
    for (const release of this.held.splice(0)) {
      release();
    }
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
