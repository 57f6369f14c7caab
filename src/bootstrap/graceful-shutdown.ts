import type { Server as HttpServer, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/** One turn of the event loop, with its poll for I/O (accepting a connection, reading requests). */
function loopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** How long the shutdown keeps taking connections the kernel has already accepted, at most. */
const SETTLE_LIMIT_MS = 1000;

export interface DrainResult {
  /** Requests that were being served when the shutdown began, or arrived on open connections after. */
  finished: number;
  /** Requests still unfinished at the deadline, whose connections were closed by force. */
  forced: number;
}

/**
 * Stops an HTTP server without losing a request already sent to it:
 * - keeps accepting while connections the kernel has already accepted keep coming (up to 1 s);
 * - then stops listening (new connections are refused), but does not drop idle keep-alive
 *   connections at once: a request may already be in their buffers, unread. They are closed once
 *   the event loop has read what was sent (Node's notion of idle: no request begun on them);
 * - every response from the shutdown on says `Connection: close`, so that clients do not send
 *   another request on a connection about to close;
 * - requests in progress finish normally; connections still open at the deadline are closed.
 */
export class GracefulShutdown {
  private draining = false;
  private readonly inProgress = new Set<ServerResponse>();
  private served = 0;
  /** Connections taken and requests begun so far: the shutdown waits until they stop moving. */
  private events = 0;

  constructor(private readonly server: HttpServer) {
    server.on('connection', () => this.events++);
    server.prependListener('request', (_req, res: ServerResponse) => {
      this.events++;
      this.inProgress.add(res);
      if (this.draining) {
        this.served++;
        res.shouldKeepAlive = false;
      }
      res.once('close', () => this.inProgress.delete(res));
    });
  }

  async drain(deadlineMs: number): Promise<DrainResult> {
    this.draining = true;
    this.served = this.inProgress.size;
    for (const res of this.inProgress) {
      if (!res.headersSent) {
        res.shouldKeepAlive = false;
      }
    }
    await this.settle();
    const closed = new Promise<void>((resolve) => {
      // net.Server's close: stops listening and reports when every connection has ended, without
      // http.Server's immediate closing of the connections that look idle.
      NetServer.prototype.close.call(this.server, () => resolve());
    });
    await this.settle();
    this.server.closeIdleConnections();
    const sweeper = setInterval(() => this.server.closeIdleConnections(), 100);
    let forced = 0;
    let deadline: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      deadline = setTimeout(() => {
        forced = this.inProgress.size;
        this.server.closeAllConnections();
        resolve();
      }, deadlineMs);
    });
    try {
      await Promise.race([closed, late]);
    } finally {
      clearInterval(sweeper);
      clearTimeout(deadline);
    }
    return { finished: this.served, forced };
  }

  /**
   * Turns the event loop until two turns in a row take no connection and begin no request. Node
   * accepts one pending connection per turn, so a burst of connections already queued by the
   * kernel takes as many turns; they are served rather than reset when the listener closes.
   */
  private async settle(): Promise<void> {
    const limit = Date.now() + SETTLE_LIMIT_MS;
    for (let quiet = 0; quiet < 2 && Date.now() < limit;) {
      const before = this.events;
      await loopTurn();
      quiet = this.events === before ? quiet + 1 : 0;
    }
  }
}
