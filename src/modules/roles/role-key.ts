import { IntKey, TextParam } from 'src/common/request-input/param-rules';
import type { ApiVersion } from 'src/common/versioning/api-version';

/** Which role PUT and DELETE /roles address: `?name=` on 4.0 and later, `?id=` on 3.x. */
export type RoleKey = { name: string } | { id: number };

/** The generic handlers' keys: absent or empty → `missing key: <name>`, else `failed to parse key: id`. */
const ROLE_ID = IntKey({ emptyIsMissing: true });
const ROLE_NAME = TextParam({ requiredBy: 'generic', emptyIsMissing: true });

/** The role named by the query's texts (`inputText`: each key's first value). */
export function roleKeyOf(query: { id?: string; name?: string }, version: ApiVersion): RoleKey {
  return version.atLeast('4.0')
    ? { name: ROLE_NAME.read(query.name, 'name') }
    : { id: ROLE_ID.read(query.id, 'id') };
}
