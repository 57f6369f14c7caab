import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA, VERSION_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { AppModule } from 'src/app.module';
import { Public, RequirePrivLevel } from 'src/common/decorators/auth.decorators';

/** Every controller reachable from AppModule, found through the modules' metadata (no database). */
function controllersOf(module: Type, seen = new Set<Type>()): Type[] {
  if (seen.has(module)) {
    return [];
  }
  seen.add(module);
  const imports = (Reflect.getMetadata(MODULE_METADATA.IMPORTS, module) ?? []) as unknown[];
  const controllers = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as Type[];
  return [
    ...controllers,
    ...imports.filter((m): m is Type => typeof m === 'function').flatMap((m) => controllersOf(m, seen)),
  ];
}

interface Route {
  name: string;
  method: string;
  path: string;
  versions: string[];
  handler: (...args: unknown[]) => unknown;
  controller: Type;
}

function routesOf(controller: Type): Route[] {
  const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
  const classVersions = Reflect.getMetadata(VERSION_METADATA, controller) as
    string | symbol | (string | symbol)[] | undefined;
  const prototype = controller.prototype as Record<string, (...args: unknown[]) => unknown>;
  return Object.getOwnPropertyNames(prototype)
    .filter((name) => name !== 'constructor' && Reflect.hasMetadata(PATH_METADATA, prototype[name]))
    .map((name) => {
      const handler = prototype[name];
      const versions = (Reflect.getMetadata(VERSION_METADATA, handler) ?? classVersions ?? []) as
        string | string[];
      return {
        name: `${controller.name}.${name}`,
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod],
        path: `${base}/${String(Reflect.getMetadata(PATH_METADATA, handler))}`
          .replace(/\/+$/, '')
          .replace(/\/+/g, '/'),
        versions: ([] as (string | symbol)[])
          .concat(versions)
          .map((v) => (typeof v === 'symbol' ? 'neutral' : v)),
        handler,
        controller,
      };
    });
}

describe('route audit', () => {
  const reflector = new Reflector();
  const routes = controllersOf(AppModule).flatMap(routesOf);

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
