import type { INestApplication } from '@nestjs/common';
import { ApiClient } from 'test/e2e/support/api';
import { type CreatedUser, createUser } from 'test/e2e/support/accounts';
import { createTestAppWithEnv } from 'test/e2e/support/app';

/** What `useApp` hands a suite: the application, the admin's client and the users asked for. */
export type SuiteApp<U extends string = never> = {
  app: INestApplication;
  admin: ApiClient;
} & Record<U, CreatedUser>;

/** What a suite may ask of `useApp` besides the defaults; every field is optional. */
export interface AppOptions<U extends string = never> {
  /** Users to create and sign in: field name to role (created in this order in the root tenant). */
  users?: Record<U, string>;
  /**
   * Environment variables set (undefined: unset) while the application starts, then restored, as
   * `createTestAppWithEnv` does; a function when a value is made only then (a temporary directory).
   */
  env?: Record<string, string | undefined> | (() => Record<string, string | undefined>);
  /** The API version the admin and the users sign in on: 4.0 unless given. */
  version?: string;
  /**
   * Run after the tests with the application still open, then the application closes: the tidying
   * that needs it (rows other suites of the run would see). The describe's own afterAll runs later.
   */
  beforeClose?: () => void | Promise<void>;
}

/**
 * The set-up most suites open with, registered as the calling `describe`'s own beforeAll/afterAll:
 * before its tests, the application starts, the admin signs in (on 4.0) and each user of `users`
 * (field name to role, created in this order in the root tenant, through the API, as `createUser`
 * does) is created and signed in; after them, the application closes.
 *
 *   const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
 *
 * The returned fields stand for values that exist only once the beforeAll ran, so each one
 * forwards every use to its value then (a Proxy): destructure them at the top of the describe and
 * use them in hooks and tests as plain variables. Used earlier (while Jest collects the tests) they
 * throw. A suite's own beforeAll, registered after this call, runs after this one and sees them set;
 * its own afterAll runs after the application closed (what needs it open goes in `beforeClose`).
 * The other options (AppOptions) start the application with some environment, or sign in on
 * another version.
 */
export function useApp<U extends string = never>(options: AppOptions<U> = {}): SuiteApp<U> {
  const users = Object.entries(options.users ?? {}) as [U, string][];
  const version = options.version ?? '4.0';
  const app = late<INestApplication>('app');
  const admin = late<ApiClient>('admin');
  const created = users.map(([name, role]) => ({ name, role, user: late<CreatedUser>(name) }));

  beforeAll(async () => {
    const env = typeof options.env === 'function' ? options.env() : (options.env ?? {});
    const started = app.set(await createTestAppWithEnv(env));
    const signedIn = admin.set(await ApiClient.admin(started, version));
    for (const { role, user } of created) {
      user.set(await createUser(started, signedIn, role, 1, version));
    }
  });

  afterAll(async () => {
    if (app.current === undefined) {
      return;
    }
    try {
      await options.beforeClose?.();
    } finally {
      await app.current.close();
    }
  });

  return {
    app: app.proxy,
    admin: admin.proxy,
    ...Object.fromEntries(created.map(({ name, user }) => [name, user.proxy])),
  } as SuiteApp<U>;
}

/** A value set later, and a stand-in forwarding every use to it once it is. */
function late<T extends object>(what: string): { proxy: T; current?: T; set(value: T): T } {
  const holder: { proxy: T; current?: T; set(value: T): T } = {
    proxy: undefined as unknown as T,
    set(value: T): T {
      holder.current = value;
      return value;
    },
  };
  const target = (): T => {
    if (holder.current === undefined) {
      throw new Error(`useApp: ${what} is used before the suite's beforeAll has set it`);
    }
    return holder.current;
  };
  holder.proxy = new Proxy({} as T, {
    get(_, key) {
      const value = target();
      const field: unknown = Reflect.get(value, key, value);
      return typeof field === 'function' ? (field as (...args: unknown[]) => unknown).bind(value) : field;
    },
    set: (_, key, field) => Reflect.set(target(), key, field),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(target(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
  });
  return holder;
}
