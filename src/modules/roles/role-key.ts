import type { Request } from 'express';
import { IntKey, NotRead, TextParam } from 'src/common/request-input/param-rules';
import { readQuery } from 'src/common/request-input/request-input';

/** Which role PUT and DELETE /roles address: `?name=` on 4.0 and later, `?id=` on 3.x. */
export type RoleKey = { name: string } | { id: number };

/**
 * The query of PUT and DELETE /roles: the generic handlers' keys (absent or empty → `missing key:
 * <name>`, else `failed to parse key: id`), `id` on 3.x and `name` on 4.0 and later, each unread in
 * the other versions.
 */
export const ROLE_KEY = {
  id: { '3.0': IntKey({ emptyIsMissing: true }), '4.0': NotRead() },
  name: { '3.0': NotRead(), '4.0': TextParam({ requiredBy: 'generic', emptyIsMissing: true }) },
};

/** The role named by a request (its @ConditionalOn row), read by the handler's declaration. */
export function roleKeyOfRequest(req: Request): RoleKey {
  return readQuery(req, ROLE_KEY) as RoleKey;
}
