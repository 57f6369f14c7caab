import { Reflector } from '@nestjs/core';
import { AppModule } from 'src/app.module';
import { Public, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { routesOfModule } from 'src/common/routes/route-inventory';

describe('route audit', () => {
  const reflector = new Reflector();
  const routes = routesOfModule(AppModule);

  it('finds the routes', () => {
    expect(routes.length).toBeGreaterThan(10);
  });

  it('gives every route either @Public() or a privilege level', () => {
    const undeclared = routes
      .filter((r) => !reflector.getAllAndOverride(Public, [r.handler, r.controller]))
      .filter((r) => reflector.getAllAndOverride(RequirePrivLevel, [r.handler, r.controller]) === undefined)
      .map((r) => r.name);
    expect(undeclared).toEqual([]);
  });

  it('never declares the same method, path and version twice', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const route of routes) {
      for (const version of route.versions.length > 0 ? route.versions : ['neutral']) {
        const key = `${route.method} ${version} ${route.path}`;
        const other = seen.get(key);
        if (other) {
          clashes.push(`${key}: ${other} and ${route.name}`);
        }
        seen.set(key, route.name);
      }
    }
    expect(clashes).toEqual([]);
  });
});
