import type { INestApplication } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import request, { type Response, type Test } from 'supertest';
import type { App } from 'supertest/types';
import { ADMIN_PASSWORD, USER_PASSWORD } from 'test/e2e/support/constants';

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

export interface AlertBody {
  alerts?: { text: string; level: string }[];
  response?: unknown;
}

/** The error envelope with exactly this status and text. */
export function expectError(res: Response, status: number, text: string): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({
    status,
    body: { alerts: [{ text, level: 'error' }] },
  });
}

/** 400 with exactly one error alert saying the JSON could not be read. */
export function expectMalformedJson(res: Response): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({
    status: 400,
    body: { alerts: [{ text: expect.stringMatching(/^malformed JSON: /), level: 'error' }] },
  });
}

export function expectSuccessAlert(res: Response, text: string): void {
  expect(res.status).toBe(200);
  expect((res.body as AlertBody).alerts).toEqual([{ text, level: 'success' }]);
}

/** The headers of docs/decisions.md#d18, with the digest recomputed over the bytes received. */
export function expectApiHeaders(res: Response): void {
  expect(res.headers['access-control-allow-credentials']).toBe('true');
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['access-control-allow-methods']).toBe('POST,GET,OPTIONS,PUT,DELETE');
  expect(res.headers['access-control-allow-headers']).toBe(
    'Origin, X-Requested-With, Content-Type, Accept, Set-Cookie, Cookie',
  );
  expect(res.headers['x-server-name']).toBe('cdn-control-plane/e2e');
  const body = res.text ?? '';
  expect(res.headers['whole-content-sha512']).toBe(
    createHash('sha512').update(body, 'utf8').digest('base64'),
  );
}

export interface CreatedUser {
  id: number;
  username: string;
  client: ApiClient;
}

/** Creates a user of `role` in `tenantId` through the API (as admin) and signs them in. */
export async function createUser(
  app: INestApplication,
  admin: ApiClient,
  role: string,
  tenantId = 1,
  version = '4.0',
): Promise<CreatedUser> {
  const username = uniqueName(role.replace(/[^a-z]/gi, ''), 40).toLowerCase();
  const res = await admin.at('4.0').post('users', {
    username,
    localPasswd: USER_PASSWORD,
    confirmLocalPasswd: USER_PASSWORD,
    role,
    tenantId,
    email: `${username}@example.com`,
    fullName: `Test ${role}`,
  });
  if (!created(res)) {
    throw new Error(`creating user ${username} failed: ${res.status} ${res.text}`);
  }
  const id = (res.body as { response: { id: number } }).response.id;
  return { id, username, client: await ApiClient.login(app, username, USER_PASSWORD, version) };
}

/** Creates a tenant under `parentId` through the API. */
export async function createTenant(
  admin: ApiClient,
  parentId = 1,
  active = true,
): Promise<{ id: number; name: string }> {
  const name = uniqueName('tenant');
  const res = await admin.at('4.0').post('tenants', { name, active, parentId });
  if (!created(res)) {
    throw new Error(`creating tenant ${name} failed: ${res.status} ${res.text}`);
  }
  return { id: (res.body as { response: { id: number } }).response.id, name };
}

/** Creates a role holding exactly `permissions` (at the creator's level) through the API. */
export async function createRole(admin: ApiClient, permissions: string[]): Promise<string> {
  const name = uniqueName('role');
  const res = await admin.at('4.0').post('roles', { name, description: 'test role', permissions });
  if (!created(res)) {
    throw new Error(`creating role ${name} failed: ${res.status} ${res.text}`);
  }
  return name;
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

/** `lastUpdated` in the original's custom form (Go `tc.TimeNoMod`), D4. */
export const CUSTOM_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00$/;
/** RFC 3339 with fractional seconds (Go `time.Time`), D4/D5b. */
export const RFC3339_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/**
 * The timestamp format of a resource outside the specification on `version` (D5b): the original's
 * RFC 3339 from `rfc3339From` (5.0 for most resources) on, its custom form before.
 */
export function timeFormatOn(version: string, rfc3339From = '5.0'): RegExp {
  return Number(version) >= Number(rfc3339From) ? RFC3339_TIME : CUSTOM_TIME;
}
