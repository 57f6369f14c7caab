import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA, VERSION_METADATA } from '@nestjs/common/constants';
import { LIST_ROUTE } from 'src/common/list-query/list-query';

/**
 * The routes the application declares, read from module and controller metadata (no app, no
 * database): the route audit and the OpenAPI document's completeness test both walk them.
 */

/** Every controller reachable from AppModule, found through the modules' metadata (no database). */
export function controllersOf(module: Type, seen = new Set<Type>()): Type[] {
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

export interface Route {
  name: string;
  method: string;
  path: string;
  versions: string[];
  handler: (...args: unknown[]) => unknown;
  controller: Type;
}

export function routesOf(controller: Type): Route[] {
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

/** Whether the route's handler takes a list query (`@ListParams` and its versioned forms). */
export function isListRoute(route: Route): boolean {
  return Reflect.hasMetadata(LIST_ROUTE, route.handler);
}

/** Every route of the application rooted at `module`. */
export function routesOfModule(module: Type): Route[] {
  return controllersOf(module).flatMap(routesOf);
}
