import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request, { type Response, type Test } from 'supertest';
import type { App } from 'supertest/types';
import { ADMIN_PASSWORD } from 'test/e2e/support/constants';

type Server = App;

/**
 * A creation succeeded: 200, or the original's 201 Created, which WIRE_COMPAT=traffic-ops answers
 * where the original does (docs/decisions.md#d5a). For fixtures; a test of the status asserts it.
 */
export function created(res: { status: number }): boolean {
  return res.status === 200 || res.status === 201;
}

/** A signed-in (or anonymous) client of one API version, as the Traffic Ops clients are. */
export class ApiClient {
  constructor(
    readonly server: Server,
    readonly version = '4.0',
    readonly cookie?: string,
  ) {}

  static async login(
    app: INestApplication,
    username: string,
    password: string,
    version = '4.0',
  ): Promise<ApiClient> {
    const server = app.getHttpServer() as Server;
    const res = await request(server).post(`/api/${version}/user/login`).send({ u: username, p: password });
    if (res.status !== 200) {
      throw new Error(`login of ${username} failed: ${res.status} ${res.text}`);
    }
    return new ApiClient(server, version, sessionCookieOf(res));
  }

  static admin(app: INestApplication, version = '4.0'): Promise<ApiClient> {
    return ApiClient.login(app, 'admin', ADMIN_PASSWORD, version);
  }

  static anonymous(app: INestApplication, version = '4.0'): ApiClient {
    return new ApiClient(app.getHttpServer() as Server, version);
  }

  /** The same session on another API version. */
  at(version: string): ApiClient {
    return new ApiClient(this.server, version, this.cookie);
  }

  get(path: string): Test {
    return this.withCookie(request(this.server).get(this.url(path)));
  }

  post(path: string, body?: unknown): Test {
    const req = this.withCookie(request(this.server).post(this.url(path)));
    return body === undefined ? req : req.send(body as object);
  }

  put(path: string, body?: unknown): Test {
    const req = this.withCookie(request(this.server).put(this.url(path)));
    return body === undefined ? req : req.send(body as object);
  }

  delete(path: string): Test {
    return this.withCookie(request(this.server).delete(this.url(path)));
  }

  /** A body sent exactly as given, e.g. malformed JSON. */
  raw(method: 'post' | 'put', path: string, body: string): Test {
    return this.withCookie(request(this.server)[method](this.url(path)))
      .set('Content-Type', 'application/json')
      .send(body);
  }

  private url(path: string): string {
    return `/api/${this.version}/${path.replace(/^\//, '')}`;
  }

  private withCookie(test: Test): Test {
    return this.cookie ? test.set('Cookie', this.cookie) : test;
  }
}

export function sessionCookieOf(res: Response): string {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const session = cookies.find((c) => c.startsWith('mojolicious='));
  if (!session) {
    throw new Error('no session cookie in the response');
  }
  return session.split(';')[0];
}

/** A name no other test uses, within the given length. */
export function uniqueName(prefix: string, maxLength = 48): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`.slice(0, maxLength);
}

export function responseOf<T = Record<string, unknown>>(res: Response): T {
  return (res.body as { response: T }).response;
}

/**
 * A value of a wire type as JSON carries it: a `Date` arrives as its text (`Date | null` as
 * `string | null`), in arrays and nested objects too.
 */
type WireValue<V> = V extends Date
  ? string
  : V extends readonly (infer E)[]
    ? WireValue<E>[]
    : V extends object
      ? Wire<V>
      : V;

/**
 * A response type of `src/modules/<module>/dto/*.response.ts` as a suite reads it from the body: the
 * same keys, its `Date`s as strings.
 */
export type Wire<T> = { [K in keyof T]: WireValue<T[K]> };
