import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP proxy the test controls, standing between the service and its database: `cut()` drops every
 * connection and refuses new ones (the database "goes away"), `restore()` lets them through again;
 * `cutBefore(text)` does the cut when the service next sends a statement containing `text`, before
 * it reaches the database (the database goes away in the middle of a transaction).
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private open = true;
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
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.on('data', (chunk: Buffer) => {
        if (this.trigger && chunk.includes(this.trigger)) {
          this.trigger = undefined;
          this.cut();
          return;
        }
        upstream.write(chunk);
      });
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
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

  restore(): void {
    this.open = true;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
