import { probePath, rowCounts } from 'test/e2e/support/route-probe';
import { Reflector } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppModule } from 'src/app.module';
import { PERMISSIONS } from 'src/common/authorization/permissions';
import {
  OnlyUserMetadata,
  PermissionsMetadata,
  PrivLevel,
  Public,
  RequirePrivLevel,
} from 'src/common/decorators/auth.decorators';
import { type Route, routesOfModule } from 'src/common/routes/route-inventory';
import { NOT_LOGGED_IN } from 'src/modules/auth/session.service';
import { readsSecrets } from 'src/modules/change-log/secret-read';
import { ApiClient, uniqueName } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { useApp } from 'test/e2e/support/suite';

/**
 * The authorization matrix, driven by the routes the code declares: for every signed-in route and
 * every version it serves, no session → 401; a role one level short (holding every permission) →
 * 403 `Forbidden.` (routes open to any signed-in user have no such role: level 0 cannot sign in);
 * a role of the highest level holding no permission → on 4.0 and later 403 naming the route's
 * permissions in their declared order, on 3.x no 403 (the level alone decides); a route only one
 * user may call (`@OnlyUser`) → 403 with its text for a user of the highest level holding every
 * permission, on every version. Writes are sent a body no route accepts: permission is decided
 * before the body is read, so the answer is the 401 or 403 all the same, never a 400. Nothing
 * refused writes anything. The per-resource suites test only their own rules (tenancy, ownership, …).
 */

const reflector = new Reflector();
const levelOf = (route: Route): PrivLevel =>
  reflector.getAllAndOverride(RequirePrivLevel, [route.handler, route.controller]);
const permissionsOf = (route: Route): readonly string[] =>
  reflector.getAllAndOverride(PermissionsMetadata, [route.handler, route.controller]) ?? [];

const onlyUserOf = (route: Route) =>
  reflector.getAllAndOverride(OnlyUserMetadata, [route.handler, route.controller]);

/** A body no write route accepts: wrong types where ids, names and lists belong, an unknown field. */
const INVALID_BODY = JSON.stringify({
  id: 'not-an-id',
  name: { not: 'a name' },
  hostName: 12,
  servers: 'none',
  type: [],
  'no-such-field': true,
});

const send = (client: ApiClient, route: Route, path: string) => {
  switch (route.method) {
    case 'POST':
      return client.raw('post', path, INVALID_BODY);
    case 'PUT':
      return client.raw('put', path, INVALID_BODY);
    case 'DELETE':
      return client.delete(path);
    default:
      return client.get(path);
  }
};

const signedIn = routesOfModule(AppModule).filter(
  (route) => !reflector.getAllAndOverride(Public, [route.handler, route.controller]),
);

describe('authorization matrix (every signed-in route, every version)', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;
  /** A user whose role is one level below each level a route can require, holding every permission. */
  const justBelow = new Map<PrivLevel, ApiClient>();
  /** A user of the highest level, not the admin role, holding no permission. */
  let withoutPermissions: ApiClient;
  /** A user of the highest level holding every permission (who is not any route's only user). */
  let withEveryPermission: ApiClient;

  /** A 3.x role body sets the level explicitly (4.0 roles take their creator's). */
  const roleAt = async (privLevel: number, capabilities: readonly string[]) => {
    const name = uniqueName(`matrix${privLevel}`);
    const res = await admin
      .at('3.0')
      .post('roles', { name, description: 'authorization matrix', privLevel, capabilities });
    expect(res.status).toBe(200);
    return name;
  };

  beforeAll(async () => {
    dataSource = app.get(DataSource);
    // Below LoggedIn is a role that cannot sign in at all (level 0, as `disallowed`).
    const levels = [...new Set(signedIn.map(levelOf))].filter((level) => level > PrivLevel.LoggedIn);
    for (const level of levels) {
      const role = await roleAt(Number(level) - 1, PERMISSIONS);
      justBelow.set(level, (await createUser(app, admin, role)).client);
    }
    withoutPermissions = (await createUser(app, admin, await roleAt(PrivLevel.Admin, []))).client;
    withEveryPermission = (await createUser(app, admin, await roleAt(PrivLevel.Admin, PERMISSIONS))).client;
  });

  it('covers every route and declares a level on each', () => {
    expect(signedIn.length).toBeGreaterThan(90);
    for (const route of signedIn) {
      expect([route.name, levelOf(route)]).toEqual([route.name, expect.any(Number)]);
    }
  });

  it.each(signedIn.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s',
    async (_name, route) => {
      const path = probePath(route);
      const required = permissionsOf(route);
      const onlyUser = onlyUserOf(route);
      // A read of secrets by whoever may read them is recorded in the change log (3.x: the level decides).
      const unchanged = readsSecrets(route.handler) ? ['log'] : [];
      const before = await rowCounts(dataSource, unchanged);
      for (const version of route.versions) {
        expectError(await send(ApiClient.anonymous(app).at(version), route, path), 401, NOT_LOGGED_IN);
        const below = justBelow.get(levelOf(route));
        if (below) {
          expectError(await send(below.at(version), route, path), 403, 'Forbidden.');
        }
        if (required.length > 0) {
          const res = await send(withoutPermissions.at(version), route, path);
          if (Number(version) >= 4) {
            expectError(res, 403, `missing required Permissions: ${required.join(', ')}`);
          } else if (onlyUser) {
            expectError(res, 403, onlyUser.forbidden);
          } else {
            // 3.x knows no permissions: the level alone decides.
            expect([route.name, version, res.status]).not.toEqual([route.name, version, 403]);
          }
        }
        if (onlyUser) {
          expectError(await send(withEveryPermission.at(version), route, path), 403, onlyUser.forbidden);
        }
      }
      expect(await rowCounts(dataSource, unchanged)).toEqual(before);
    },
  );
});
