/**
 * A small keep-alive JSON client for the benchmark: plain HTTP or HTTPS to the server under test on
 * loopback (its certificate is the bench's own self-signed one, so it is not verified).
 */
import * as http from 'node:http';
import * as https from 'node:https';

export interface BenchResponse {
  status: number;
  body: string;
  setCookie: string[];
  headers: http.IncomingHttpHeaders;
}

export class BenchClient {
  private readonly agent: http.Agent;

  constructor(
    readonly base: string,
    private cookie = '',
  ) {
    this.agent = base.startsWith('https:')
      ? new https.Agent({ keepAlive: true, rejectUnauthorized: false })
      : new http.Agent({ keepAlive: true });
  }

  /** A client on the same server and session with its own connection pool (one per concurrent writer). */
  fork(): BenchClient {
    return new BenchClient(this.base, this.cookie);
  }

  get sessionCookie(): string {
    return this.cookie;
  }

  /** Signs in on `version` (t3c signs in on 5.0) and keeps the session cookie. */
  async login(username: string, password: string, version = '4.0'): Promise<void> {
    const res = await this.request('POST', `/api/${version}/user/login`, { u: username, p: password });
    if (res.status !== 200) {
      throw new Error(`login failed: ${res.status} ${res.body}`);
    }
    // The session cookie (the original also sets an access_token cookie beside it).
    const session = res.setCookie.find((cookie) => cookie.startsWith('mojolicious=')) ?? res.setCookie[0];
    this.cookie = session.split(';')[0];
  }

  request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<BenchResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const transport = this.base.startsWith('https:') ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request(
        `${this.base}${path}`,
        {
          method,
          agent: this.agent,
          headers: {
            ...headers,
            ...(this.cookie ? { Cookie: this.cookie } : {}),
            ...(payload === undefined
              ? {}
              : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              setCookie: res.headers['set-cookie'] ?? [],
              headers: res.headers,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The `response` of a success (200, or 201 where the original creates so), or an error naming the request. */
  async ok<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request(method, path, body);
    if (res.status !== 200 && res.status !== 201) {
      throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 500)}`);
    }
    return (JSON.parse(res.body) as { response: T }).response;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The median: the middle value, or the mean of the two middle values of an even count. */
export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
