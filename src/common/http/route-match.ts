/**
 * Whether a request reached one of our route handlers. The first global guard marks it, so the
 * exception filter can tell "no such route" (404/501, docs/decisions.md#d1) from a handler's own 404.
 * (Express's `req.route` cannot tell: request-logging middleware is mounted on a wildcard route.)
 */
const MATCHED = Symbol('route matched');

export function markRouteMatched(req: object): void {
  (req as { [MATCHED]?: boolean })[MATCHED] = true;
}

export function isRouteMatched(req: object): boolean {
  return (req as { [MATCHED]?: boolean })[MATCHED] === true;
}
