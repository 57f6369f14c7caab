import { probePath, rowCounts } from 'test/e2e/support/route-probe';
import { Reflector } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppModule } from 'src/app.module';
import { PERMISSIONS } from 'src/common/authorization/permissions';
import {
  PermissionsMetadata,
  PrivLevel,
  Public,
  RequirePrivLevel,
} from 'src/common/decorators/auth.decorators';
import { type Route, routesOfModule } from 'src/common/routes/route-inventory';
import { NOT_LOGGED_IN } from 'src/modules/auth/session.service';
import { ApiClient, createUser, expectError, uniqueName } from 'test/e2e/support/api';
import { useApp } from 'test/e2e/support/suite';

/**
 * The authorization matrix, driven by the routes the code declares: for every signed-in route and
 * every version it serves, no session → 401; a role one level short (holding every permission) →
 * 403 `Forbidden.` (routes open to any signed-in user have no such role: level 0 cannot sign in);
 * a role of the highest level holding no permission → on 4.0 and later 403 naming the route's
 * permissions in their declared order, on 3.x no 403 (the level alone decides). Nothing refused
 * writes anything. The per-resource suites test only their own rules (tenancy, ownership, …).
 */

const reflector = new Reflector();
const levelOf = (route: Route): PrivLevel =>
  reflector.getAllAndOverride(RequirePrivLevel, [route.handler, route.controller]);
const permissionsOf = (route: Route): readonly string[] =>
  reflector.getAllAndOverride(PermissionsMetadata, [route.handler, route.controller]) ?? [];

const send = (client: ApiClient, route: Route, path: string) => {
  switch (route.method) {
    case 'POST':
      return client.raw('post', path, '{}');
    case 'PUT':
      return client.raw('put', path, '{}');
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
      const before = await rowCounts(dataSource);
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
          } else {
            // 3.x knows no permissions: the level alone decides.
            expect([route.name, version, res.status]).not.toEqual([route.name, version, 403]);
          }
        }
      }
      expect(await rowCounts(dataSource)).toEqual(before);
    },
  );
});
