import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { AppModule } from 'src/app.module';
import { isHandlerArgumentFactory } from 'src/common/request-input/handler-argument';
import { declaredInputs } from 'src/common/request-input/request-input';
import { type Route, routesOfModule } from 'src/common/routes/route-inventory';

/**
 * The handlers that take the whole request, and why: none of them reads a path or query parameter
 * from it (those come declared, request-input.ts).
 */
const WHOLE_REQUEST: Record<string, string> = {
  'AuthController.login': 'the session cookie is written on the request',
  'AuthController.loginWithToken': 'the session cookie is written on the request',
  'AuthController.logout': 'the session to end is read from the cookie',
  'JobsController.create': "the Location header names the request's scheme and host",
  'LogsController.newCount': 'the last_seen_log cookie',
  'CdniController.advertisement': 'the bearer token of the Authorization header or cookie',
  'CdniController.configuration': 'the bearer token of the Authorization header or cookie',
  'CdniController.hostConfiguration': 'the bearer token of the Authorization header or cookie',
};

/** Request headers a handler reads as an argument, by handler. */
const HEADERS: Record<string, string[]> = {
  'CacheStatsController.get': ['accept'],
  'DeliveryServiceStatsController.get': ['accept'],
};

interface ArgMetadata {
  index: number;
  data?: unknown;
  factory?: unknown;
}

function argumentsOf(route: Route): { type: string; arg: ArgMetadata }[] {
  const method = route.name.slice(route.name.indexOf('.') + 1);
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, method) ?? {}) as Record<
    string,
    ArgMetadata
  >;
  return Object.entries(args).map(([key, arg]) => ({ type: key.split(':')[0], arg }));
}

describe('request input (src/common/request-input)', () => {
  const routes = routesOfModule(AppModule);

  it('declares every :param of every route path, and only those', () => {
    const problems: string[] = [];
    for (const route of routes) {
      const inPath = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]).filter((n) => n !== 'version');
      const declared = declaredInputs(route.handler).flatMap((input) =>
        'name' in input && input.in === 'path' ? [input.name] : [],
      );
      for (const name of inPath.filter((n) => !declared.includes(n))) {
        problems.push(`${route.name} (${route.path}): :${name} is not declared with @ValidPath`);
      }
      for (const name of declared.filter((n) => !inPath.includes(n))) {
        problems.push(`${route.name} (${route.path}): @ValidPath('${name}') names no segment of the path`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives handlers path and query parameters only through their declarations', () => {
    const problems: string[] = [];
    for (const route of routes) {
      for (const { type, arg } of argumentsOf(route)) {
        if (arg.factory !== undefined) {
          if (!isHandlerArgumentFactory(arg.factory)) {
            problems.push(`${route.name}: argument ${arg.index} comes from an unknown parameter decorator`);
          }
          continue;
        }
        switch (Number(type) as RouteParamtypes) {
          case RouteParamtypes.QUERY:
          case RouteParamtypes.PARAM:
            problems.push(`${route.name}: argument ${arg.index} is an undeclared @Query()/@Param()`);
            break;
          case RouteParamtypes.REQUEST:
            if (!(route.name in WHOLE_REQUEST)) {
              problems.push(`${route.name}: argument ${arg.index} is the whole request (@Req())`);
            }
            break;
          case RouteParamtypes.HEADERS:
            if (!(HEADERS[route.name] ?? []).includes(String(arg.data))) {
              problems.push(`${route.name}: argument ${arg.index} is the header ${String(arg.data)}`);
            }
            break;
          case RouteParamtypes.RESPONSE:
            break;
          default:
            problems.push(
              `${route.name}: argument ${arg.index} is of Nest's kind ${RouteParamtypes[Number(type)]}`,
            );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('knows every handler it lets take the whole request or a header', () => {
    const names = new Set(routes.map((r) => r.name));
    expect([...Object.keys(WHOLE_REQUEST), ...Object.keys(HEADERS)].filter((n) => !names.has(n))).toEqual([]);
  });

  it('sees the declarations of a handler, in the order of its signature', () => {
    const route = routes.find((r) => r.name === 'ServerServerCapabilitiesController.remove')!;
    expect(declaredInputs(route.handler).map((i) => ('name' in i ? `${i.in} ${i.name}` : 'list'))).toEqual([
      'query serverId',
      'query serverCapability',
    ]);
    const list = routes.find((r) => r.name === 'DeliveryServiceServersController.list')!;
    expect(declaredInputs(list.handler).map((i) => ('name' in i ? `${i.in} ${i.name}` : 'list'))).toEqual([
      'list',
      'query deliveryserviceids',
      'query serverids',
      'query limit',
      'query page',
      'query orderby',
    ]);
  });
});
