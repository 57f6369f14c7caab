import type { Request, Response } from 'express';
import { isServedVersion, versionInPath } from 'src/common/versioning/api-version';
import type { AppMetrics } from './metrics';
import type { SeriesLabels } from './route-series';

/** The label of a request no route answered (unknown path or version: 404 / 501). */
export const UNMATCHED_ROUTE = 'unmatched';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'];
const PREFIX = '/api/:version';

/** An Express route as the router leaves it on the request it dispatched to. */
interface RouteLike {
  path?: unknown;
}

/** Each route's template label, worked out on its first request and kept with the route. */
const templates = new WeakMap<object, string>();

/** `/api/:version/cdns/:id` → `/cdns/:id`: the template, never the path (no ids, no names). */
export function routeTemplateOf(req: Request): string {
  const route = (req as { route?: unknown }).route as RouteLike | undefined;
  if (!route || typeof route !== 'object') {
    return UNMATCHED_ROUTE;
  }
  const known = templates.get(route);
  if (known !== undefined) {
    return known;
  }
  const path = typeof route.path === 'string' ? route.path : UNMATCHED_ROUTE;
  const template = path.startsWith(PREFIX) ? path.slice(PREFIX.length) || '/' : path;
  templates.set(route, template);
  return template;
}

function versionLabel(req: Request): string {
  const version = versionInPath(req.path);
  return version !== undefined && isServedVersion(version) ? version : 'none';
}

function statusClass(status: number): string {
  return STATUS_CLASSES[Math.floor(status / 100)] ?? '5xx';
}

/**
 * Counts a finished request (called by the request log, src/common/logging/request-log.ts): its
 * series is found by one Map lookup, every label from a bounded set.
 */
export function observeRequest(req: Request, res: Response, seconds: number, metrics: AppMetrics): void {
  const route = routeTemplateOf(req);
  const method = METHODS.has(req.method) ? req.method : 'OTHER';
  const version = versionLabel(req);
  const status = statusClass(res.statusCode);
  const key = `${route} ${method} ${version} ${status}`;
  metrics.requests.observe(key, (): SeriesLabels => ({ route, method, version, status }), seconds);
  if (
    method === 'GET' &&
    (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined)
  ) {
    const result = res.statusCode === 304 ? '304' : res.statusCode === 200 ? '200' : 'other';
    metrics.conditional.inc(`${route} ${result}`, () => ({ route, result }));
  }
}
