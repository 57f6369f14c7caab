import type { Server as HttpServer, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/** Resolves after `count` turns of the event loop, each with a poll for I/O (accepts, reads). */
async function loopTurns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export interface DrainResult {
  /** Requests that were being served when the shutdown began, or arrived on open connections after. */
  finished: number;
  /** Requests still unfinished at the deadline, whose connections were closed by force. */
  forced: number;
}

/**
 * Stops an HTTP server without losing a request already sent to it:
 * - keeps accepting for a moment, so that connections the kernel already accepted are taken;
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

  constructor(private readonly server: HttpServer) {
    server.prependListener('request', (_req, res: ServerResponse) => {
      this.inProgress.add(res);
      if (this.draining) {
        this.served++;
        res.shouldKeepAlive = false;
      }
      res.once('close', () => this.inProgress.delete(res));
    });
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async drain(deadlineMs: number): Promise<DrainResult> {
    this.draining = true;
    this.served = this.inProgress.size;
    for (const res of this.inProgress) {
      if (!res.headersSent) {
        res.shouldKeepAlive = false;
      }
    }
    await loopTurns(2);
    const closed = new Promise<void>((resolve) => {
      // net.Server's close: stops listening and reports when every connection has ended, without
      // http.Server's immediate closing of the connections that look idle.
      NetServer.prototype.close.call(this.server, () => resolve());
    });
    await loopTurns(2);
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
}
