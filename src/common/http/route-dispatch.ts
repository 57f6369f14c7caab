import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Router } from 'express';

/** The part of an Express 5 router layer this file reads. */
interface Layer {
  route?: { path?: unknown };
}

interface RouterLike {
  stack: Layer[];
}

/** `/api/:version/<segment>…`: the routes that are grouped by their first segment after the version. */
const PREFIXED_ROUTE = /^\/api\/:version\/([A-Za-z0-9_.~-]+)(?:\/|$)/;

/** The literal first segment after `/api/:version/` of a route layer, lower-cased; else undefined. */
export function segmentOfLayer(layer: Layer): string | undefined {
  const path = layer.route?.path;
  if (typeof path !== 'string') {
    return undefined;
  }
  return PREFIXED_ROUTE.exec(path)?.[1].toLowerCase();
}

/**
 * The segment after `/api/<version>/` of a request's path (without its query string), lower-cased,
 * as the routes match it.
 */
export function segmentOfPath(path: string): string | undefined {
  if (!path.startsWith('/api/')) {
    return undefined;
  }
  const versionEnd = path.indexOf('/', 5);
  if (versionEnd < 0) {
    return undefined;
  }
  const end = path.indexOf('/', versionEnd + 1);
  return path.slice(versionEnd + 1, end < 0 ? undefined : end).toLowerCase();
}

/**
 * docs/decisions.md#d114. Replaces, in `router.stack`, the routes under `/api/:version/<segment>` by one layer that hands a
 * request to the routes of its own segment only. Express tries a router's layers one by one, each
 * with its regular expression: with some 250 routes a request near the end tried them all. The
 * order that decides which route answers is kept: a request for segment `s` runs, in their original
 * order, the routes of `s` and every other layer that lay among the grouped routes (a layer whose path
 * has no literal segment there could match any request, so it runs for every segment). The routes of
 * another segment cannot match the request, so leaving them out changes no answer. Layers before the
 * first grouped route and after the last one stay where they were.
 *
 * Returns the number of segments.
 */
export function dispatchByFirstSegment(router: RouterLike): number {
  const stack = router.stack;
  const first = stack.findIndex((layer) => segmentOfLayer(layer) !== undefined);
  if (first < 0) {
    return 0;
  }
  let last = first;
  for (let i = first; i < stack.length; i++) {
    if (segmentOfLayer(stack[i]) !== undefined) {
      last = i;
    }
  }
  const range = stack.slice(first, last + 1);
  const segments = new Set(range.map(segmentOfLayer).filter((s): s is string => s !== undefined));
  const routerOf = (segment: string | undefined): ReturnType<typeof Router> => {
    const sub = Router();
    (sub as unknown as RouterLike).stack = range.filter((layer) => {
      const own = segmentOfLayer(layer);
      return own === undefined || own === segment;
    });
    return sub;
  };
  const bySegment = new Map([...segments].map((segment) => [segment, routerOf(segment)]));
  const others = routerOf(undefined);
  const dispatch = Router();
  dispatch.use((req, res, next) => {
    const segment = segmentOfPath(req.path);
    const routes = (segment !== undefined && bySegment.get(segment)) || others;
    routes(req, res, next);
  });
  stack.splice(first, range.length, ...(dispatch as unknown as RouterLike).stack);
  return segments.size;
}

/**
 * Groups the application's routes by first segment (`dispatchByFirstSegment`) once Nest has
 * registered them all, its not-found and error handlers included (they stay last).
 */
@Injectable()
export class RouteDispatch implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const instance = this.adapterHost.httpAdapter?.getInstance<{ router?: RouterLike }>();
    if (instance?.router) {
      dispatchByFirstSegment(instance.router);
    }
  }
}
